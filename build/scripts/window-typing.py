#!/usr/bin/env python3
"""Types into a pane of the real window and checks what reached the program.

Run by window-typing.sh on an X display where the app shows one pane running
`cat > FILE`. xdotool types lines through the X server as a person would
(1-8 ms between keys), then a paste (Shift+Insert) in the middle of typed
text; every line must arrive in FILE exactly as typed. Prints, per line, how
long after the last key the line reached the program: that is the web
view's backlog (each key is handled by it before it reaches the pane), the
floor of when its echo can be drawn. Timings are printed, never asserted.

    window-typing.py FILE [--lines N]
Exit 0: every line arrived intact; 1: a line was scrambled or missing.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

WAIT = 60.0  # seconds a line may take on a loaded machine before it counts as missing


def lines_of(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    # cat writes a line once Enter reached it; empty lines are the Returns
    # pressed while waiting for the pane to take the keyboard.
    return [l for l in text.split("\n")[:-1] if l != ""]


def wait_lines(path, n, timeout=WAIT):
    """Polls FILE until it has n non-empty lines; returns them, or None."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = lines_of(path)
        if got is not None and len(got) >= n:
            return got
        time.sleep(0.002)
    return None


def frame():
    """The pane's part of the screen (right of the rail), as raw grey pixels."""
    return subprocess.run(["import", "-silent", "-window", "root", "-crop", "840x740+430+45", "-depth", "8", "gray:-"],
                          capture_output=True).stdout


def drawn(since, arrived):
    """Seconds from since until the screen first showed what it settles on:
    frames are taken until three in a row, the last at least 0.3 s after
    the line reached the program, are the same. The step is one capture
    (tens of ms), so this is a measure, not a precise clock."""
    frames = []
    while True:
        frames.append((time.monotonic(), frame()))
        last = frames[-3:]
        if len(last) == 3 and last[0][1] == last[1][1] == last[2][1] and last[2][0] - arrived > 0.3:
            break
        if time.monotonic() - since > WAIT:
            return None
    final = frames[-1][1]
    for t, f in frames:
        if f == final:
            return t - since


def xdotool(*args):
    subprocess.run(["xdotool", *args], check=True)


def take_keyboard(path):
    """Clicks into the pane and presses Return until one reaches the program:
    only then is the pane's view attached and focused, so no typed key of the
    test can be lost to a window that is still starting."""
    end = time.monotonic() + WAIT
    while not os.path.exists(path):
        if time.monotonic() > end:
            sys.exit(f"window-typing: FAIL — the pane never started (no {path})")
        time.sleep(0.05)
    while True:
        xdotool("mousemove", "800", "400", "click", "1", "key", "Return")
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            if os.path.getsize(path) > 0:
                return
            time.sleep(0.01)
        if time.monotonic() > end:
            sys.exit("window-typing: FAIL — no key typed into the window reached the pane in 60 s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--lines", type=int, default=24)
    a = ap.parse_args()
    take_keyboard(a.file)

    want = []
    rows = []
    for i in range(a.lines):
        delay = 1 + i % 8
        line = f"{i:02d} the quick brown fox jumps over the lazy dog at {delay} ms per key"
        want.append(line)
        start = time.monotonic()
        xdotool("type", "--delay", str(delay), line + "\n")
        typed = time.monotonic()
        got = wait_lines(a.file, len(want))
        if got is None:
            break
        arrived = time.monotonic()
        echo = drawn(typed, arrived)
        rows.append((delay, len(line) + 1, (typed - start) * 1000, (arrived - typed) * 1000, echo * 1000 if echo is not None else float("nan")))

    # A paste lands between typed keys: before it, inside it and after it
    # nothing may move.
    clip = "pasted one: ( [ { < > } ] ) \u00e9\u00e8 \u4e2d\u6587\npasted two " + "x" * 300 + "\npasted three"
    want += ["before paste:pasted one: ( [ { < > } ] ) \u00e9\u00e8 \u4e2d\u6587", "pasted two " + "x" * 300, "pasted three:after paste"]
    owner = subprocess.Popen(["xclip", "-quiet", "-selection", "clipboard"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        owner.stdin.write(clip.encode())
        owner.stdin.close()
        # xclip owns the clipboard once it serves it: ask for it back until it does.
        end = time.monotonic() + WAIT
        while subprocess.run(["xclip", "-o", "-selection", "clipboard"], capture_output=True).stdout.decode() != clip:
            if time.monotonic() > end:
                sys.exit("window-typing: FAIL — could not put the paste on the clipboard")
            time.sleep(0.05)
        # One xdotool each: its `type` takes every remaining argument as text.
        xdotool("type", "--delay", "2", "before paste:")
        xdotool("key", "shift+Insert")
        xdotool("type", "--delay", "2", ":after paste\n")
        wait_lines(a.file, len(want))
    finally:
        owner.kill()
        owner.wait()

    got = lines_of(a.file) or []
    bad = 0
    for i, w in enumerate(want):
        g = got[i] if i < len(got) else "(missing)"
        if g != w:
            bad += 1
            print(f"window-typing: line {i}: typed {w!r}\n               arrived {g!r}")
    for g in got[len(want):]:
        bad += 1
        print(f"window-typing: unexpected line {g!r}")

    print("window-typing: per line — ms between keys, keys, ms to type them; then ms from the last key until the line reached the pane, and until its echo was drawn")
    for delay, keys, t, lag, echo in rows:
        print(f"  {delay:>2} ms  {keys:>3} keys  {t:7.0f}  {lag:7.0f}  {echo:7.0f}")
    if rows:
        lags = [r[3] for r in rows]
        echoes = [r[4] for r in rows if r[4] == r[4]]
        print(f"window-typing: after a burst the last key reached the pane in median {statistics.median(lags):.0f} ms (worst {max(lags):.0f});"
              f" its echo was drawn in median {statistics.median(echoes or [0]):.0f} ms (worst {max(echoes or [0]):.0f})")
    if bad:
        print(f"window-typing: FAIL — {bad} of {len(want)} lines did not arrive as typed")
        return 1
    print(f"window-typing: OK — {len(want)} lines typed at 1-8 ms per key, and a paste between typed keys, arrived as typed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
