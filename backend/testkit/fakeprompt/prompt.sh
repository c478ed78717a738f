#!/usr/bin/env bash
# A stand-in for Claude Code's TUI, for detection tests and the browser e2e:
# banner, idle footer, a turn that works and then asks a Bash permission
# ("Do you want to proceed?" / "❯ 1. Yes"), the answer, the idle footer again.
# Keys: t = start a task, 1 = answer Yes, 2 = answer No, q = quit.
# OSF_WORK sets how long the turn works before asking (seconds, default 0.3).
# Continued after a stop (SIGCONT) it draws its whole UI again, as Claude
# Code does.
set -u
work=${OSF_WORK:-0.3}
stty -echo 2>/dev/null
banner() {
	printf '\033[2J\033[H'
	printf ' \342\234\273 Welcome to Claude Code v2.1.0\r\n'
	printf '   cwd: %s\r\n' "$PWD"
}
idle() { printf '\033[5;1H\033[J> \r\n\033[2m  ? for shortcuts\033[0m\r\n'; }
working() { printf '\033[5;1H\033[J\342\234\273 Working\342\200\246 (esc to interrupt)\r\n'; }
ask() {
	# Words placed with cursor moves, as the real TUI draws them.
	printf '\033[5;1H\033[J\342\225\255\342\224\200\342\224\200\342\224\200\r\n'
	printf '\342\224\202 Bash command\r\n\342\224\202\033[5Grm -rf build\r\n'
	printf '\342\224\202 Do\033[6Gyou\033[10Gwant\033[15Gto\033[18Gproceed?\r\n'
	printf '\342\224\202 \342\235\257 1. Yes\r\n\342\224\202   2. No\r\n\342\225\260\342\224\200\342\224\200\342\224\200\r\n'
	printf '\033[2m Esc to cancel \302\267 Tab to amend\033[0m\r\n'
}
removed() { printf '\033[5;1H\033[J\342\217\272 Removed build/.\r\n'; printf '\033[7;1H> \r\n\033[2m  ? for shortcuts\033[0m\r\n'; }
kept() { printf '\033[5;1H\033[J\342\217\272 Not removed.\r\n'; printf '\033[7;1H> \r\n\033[2m  ? for shortcuts\033[0m\r\n'; }
# show draws a frame and remembers it for the redraw after a stop.
show() { frame=$1; $frame; }
trap 'banner; $frame' CONT
# pause sleeps in the background: `wait` lets the CONT trap run at once.
pause() {
	sleep "$1" &
	local s=$!
	while kill -0 "$s" 2>/dev/null; do wait "$s"; done
}
banner
show idle
while true; do
	IFS= read -rsn1 key || { [ $? -gt 128 ] && continue; exit 0; }
	case "$key" in
	t) show working; pause "$work"; show ask ;;
	1) show working; pause 0.3; show removed ;;
	2) show kept ;;
	q) exit 0 ;;
	esac
done
