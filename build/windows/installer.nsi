; The osFoundry installer for Windows, compiled on Linux by Debian's makensis
; from build/scripts/package-windows.sh, which passes the defines below.
;
; Per user, no administrator rights: the app goes to
; %LOCALAPPDATA%\Programs\osFoundry and everything it registers lives under
; HKCU. Installing, upgrading and uninstalling never touch the user's data
; folder (%APPDATA%\osfoundry, or $OSFOUNDRY_HOME).
; Only stock NSIS headers and no plugins beyond what Debian's nsis ships.

!ifndef VERSION | VERSION4 | BIN_DIR | ICON | ICON_PNG | OUT_FILE | SRC_DIR
  !error "Build the installer with build/scripts/package-windows.sh (make package-windows): it defines VERSION, VERSION4, BIN_DIR, ICON, ICON_PNG, OUT_FILE and SRC_DIR"
!endif

Target amd64-unicode

!define APP_EXE "osfoundry-desktop.exe"
!define CLI_EXE "osfoundry.exe"
!define UNINSTALL_EXE "uninstall.exe"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\osFoundry"
; The toast identity and link handler the app itself registers at start
; (backend/desktopnotify/notify_windows.go): keep the values in step.
!define AUMID "osFoundry.Desktop"
!define URL_KEY "Software\Classes\osfoundry"
!define AUMID_KEY "Software\Classes\AppUserModelId\${AUMID}"
!define WEBVIEW2_CLIENT "Microsoft\EdgeUpdate\Clients\{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}"
!define WEBVIEW2_DOWNLOAD "https://go.microsoft.com/fwlink/p/?LinkId=2124703"

Name "osFoundry"
OutFile "${OUT_FILE}"
InstallDir "$LOCALAPPDATA\Programs\osFoundry"
; An upgrade goes where the previous version went.
InstallDirRegKey HKCU "${UNINST_KEY}" "InstallLocation"
RequestExecutionLevel user
ManifestDPIAware true
SetCompressor /SOLID lzma
BrandingText "osFoundry ${VERSION}"

!include "MUI2.nsh"
!include "LogicLib.nsh"
!include "FileFunc.nsh"
!include "WinMessages.nsh"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\${APP_EXE}"
!define MUI_FINISHPAGE_RUN_TEXT "Start osFoundry"

!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH

!define MUI_UNCONFIRMPAGE_TEXT_TOP "osFoundry will be removed from the folder below.$\r$\nYour data (sessions, notes and settings in $APPDATA\osfoundry) is kept: delete that folder yourself if you want it gone."
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"

VIProductVersion "${VERSION4}"
VIFileVersion "${VERSION4}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "ProductName" "osFoundry"
VIAddVersionKey /LANG=${LANG_ENGLISH} "CompanyName" "osFoundry"
VIAddVersionKey /LANG=${LANG_ENGLISH} "FileDescription" "osFoundry installer"
VIAddVersionKey /LANG=${LANG_ENGLISH} "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "LegalCopyright" "Copyright © osFoundry"

; StrIndex: push the haystack, then the needle; pops the index of the first
; needle in the haystack, or -1. Case-insensitive (StrCmp is), as Windows
; paths are.
!macro DEFINE_STR_INDEX UN
Function ${UN}StrIndex
  Exch $R1
  Exch
  Exch $R0
  Push $R2
  Push $R3
  Push $R4
  StrLen $R2 $R1
  StrCpy $R3 0
  loop:
    StrCpy $R4 $R0 $R2 $R3
    StrCmp $R4 "" notfound
    StrCmp $R4 $R1 found
    IntOp $R3 $R3 + 1
    Goto loop
  notfound:
    StrCpy $R3 -1
  found:
  StrCpy $R0 $R3
  Pop $R4
  Pop $R3
  Pop $R2
  Exch
  Pop $R1
  Exch $R0
FunctionEnd
!macroend
!insertmacro DEFINE_STR_INDEX ""
!insertmacro DEFINE_STR_INDEX "un."

; ReadUserPath sets $UserPath to the user's PATH (HKCU\Environment Path)
; and $UserPathState to "ok", "absent" or "unreadable". ReadRegStr returns ""
; with the error flag both for a missing value and for one longer than NSIS's
; string buffer; writing "" back would wipe the user's PATH, so the two are
; told apart by looking for the value's name.
Var UserPath
Var UserPathState
!macro DEFINE_READ_USER_PATH UN
Function ${UN}ReadUserPath
  Push $R0
  Push $R1
  ClearErrors
  ReadRegStr $UserPath HKCU "Environment" "Path"
  StrCpy $UserPathState "ok"
  ${If} ${Errors}
    StrCpy $UserPath ""
    StrCpy $UserPathState "absent"
    StrCpy $R1 0
    ${Do}
      EnumRegValue $R0 HKCU "Environment" $R1
      ${If} $R0 == ""
        ${Break}
      ${EndIf}
      ${If} $R0 == "Path"
        StrCpy $UserPathState "unreadable"
        ${Break}
      ${EndIf}
      IntOp $R1 $R1 + 1
    ${Loop}
  ${EndIf}
  Pop $R1
  Pop $R0
FunctionEnd
!macroend
!insertmacro DEFINE_READ_USER_PATH ""
!insertmacro DEFINE_READ_USER_PATH "un."

; RefuseWhileRunning: push a file; returns once it is not in use. A running
; program cannot be opened for writing, so a failed open for append means
; osFoundry (the window, or the command line in some terminal) still runs.
; Cancel aborts before anything was changed.
!macro DEFINE_REFUSE_WHILE_RUNNING UN
Function ${UN}RefuseWhileRunning
  Exch $R0
  Push $R1
  retry:
    IfFileExists "$R0" 0 done
    ClearErrors
    FileOpen $R1 "$R0" a
    IfErrors busy
    FileClose $R1
    Goto done
  busy:
    MessageBox MB_RETRYCANCEL|MB_ICONEXCLAMATION "osFoundry is running, so $R0 cannot be replaced or removed.$\r$\n$\r$\nQuit osFoundry (close its window, and stop any osfoundry command in a terminal), then click Retry." /SD IDCANCEL IDRETRY retry
    Abort "osFoundry is still running: nothing was changed."
  done:
  Pop $R1
  Pop $R0
FunctionEnd
!macroend
!insertmacro DEFINE_REFUSE_WHILE_RUNNING ""
!insertmacro DEFINE_REFUSE_WHILE_RUNNING "un."

; AddToPath puts the install folder on the user's PATH so `osfoundry` works
; in new terminals, and records the entry so the uninstaller removes exactly
; it (and nothing when the folder was on PATH before).
Function AddToPath
  Call ReadUserPath
  StrCpy $0 $UserPath
  ${If} $UserPathState == "unreadable"
    DetailPrint "Your PATH is too long for this installer to change safely."
    MessageBox MB_OK|MB_ICONINFORMATION "Your PATH is too long for this installer to change safely. To use the osfoundry command in a terminal, add this folder to your PATH yourself:$\r$\n$INSTDIR" /SD IDOK
    Return
  ${EndIf}
  Push ";$0;"
  Push ";$INSTDIR;"
  Call StrIndex
  Pop $2
  ${If} $2 != -1
    DetailPrint "$INSTDIR is already on your PATH."
    Return
  ${EndIf}
  StrLen $2 "$0;$INSTDIR"
  ${If} $2 >= ${NSIS_MAX_STRLEN}
    MessageBox MB_OK|MB_ICONINFORMATION "Your PATH is too long for this installer to change safely. To use the osfoundry command in a terminal, add this folder to your PATH yourself:$\r$\n$INSTDIR" /SD IDOK
    Return
  ${EndIf}
  ${If} $0 == ""
    StrCpy $0 "$INSTDIR"
  ${Else}
    StrCpy $2 $0 "" -1
    ${If} $2 == ";"
      StrCpy $0 "$0$INSTDIR"
    ${Else}
      StrCpy $0 "$0;$INSTDIR"
    ${EndIf}
  ${EndIf}
  WriteRegExpandStr HKCU "Environment" "Path" "$0"
  WriteRegStr HKCU "${UNINST_KEY}" "PathEntry" "$INSTDIR"
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
  DetailPrint "Added $INSTDIR to your PATH."
FunctionEnd

; un.RemoveFromPath removes the one entry AddToPath added, wherever it now
; stands, and leaves every other entry (and its order) as it was.
Function un.RemoveFromPath
  ReadRegStr $3 HKCU "${UNINST_KEY}" "PathEntry"
  ${If} $3 == ""
    Return
  ${EndIf}
  Call un.ReadUserPath
  StrCpy $0 $UserPath
  ${If} $UserPathState != "ok"
    ${If} $UserPathState == "unreadable"
      MessageBox MB_OK|MB_ICONINFORMATION "Your PATH is too long for the uninstaller to change safely. Remove this folder from it yourself:$\r$\n$3" /SD IDOK
    ${EndIf}
    Return
  ${EndIf}
  ; Wrap in ';' so the first and last entries look like the others; the
  ; match ";entry;" becomes ";" and the wrapping is stripped afterwards.
  StrCpy $1 ";$0;"
  Push $1
  Push ";$3;"
  Call un.StrIndex
  Pop $2
  ${If} $2 == -1
    Return
  ${EndIf}
  StrLen $4 ";$3;"
  StrCpy $5 $1 $2
  IntOp $4 $2 + $4
  StrCpy $6 $1 "" $4
  StrCpy $1 "$5;$6"
  ${If} $1 == ";"
    DeleteRegValue HKCU "Environment" "Path"
  ${Else}
    StrCpy $1 $1 -1 1
    WriteRegExpandStr HKCU "Environment" "Path" "$1"
  ${EndIf}
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
  DetailPrint "Removed $3 from your PATH."
FunctionEnd

; CheckWebView2 says when the Edge WebView2 runtime the window needs is
; missing (Windows 11 and current Windows 10 have it) and offers Microsoft's
; installer. The app is installed either way.
Function CheckWebView2
  ReadRegStr $0 HKLM "SOFTWARE\WOW6432Node\${WEBVIEW2_CLIENT}" "pv"
  ${If} $0 == ""
  ${OrIf} $0 == "0.0.0.0"
    ReadRegStr $0 HKLM "SOFTWARE\${WEBVIEW2_CLIENT}" "pv"
  ${EndIf}
  ${If} $0 == ""
  ${OrIf} $0 == "0.0.0.0"
    ReadRegStr $0 HKCU "Software\${WEBVIEW2_CLIENT}" "pv"
  ${EndIf}
  ${If} $0 != ""
  ${AndIf} $0 != "0.0.0.0"
    DetailPrint "Microsoft Edge WebView2 Runtime $0 is installed."
    Return
  ${EndIf}
  DetailPrint "Microsoft Edge WebView2 Runtime is missing: osFoundry's window needs it."
  ${If} ${Cmd} `MessageBox MB_YESNO|MB_ICONINFORMATION "osFoundry's window needs the Microsoft Edge WebView2 Runtime, which is not installed on this computer.$\r$\n$\r$\nDownload Microsoft's installer for it now? Run it, then start osFoundry." /SD IDNO IDYES`
    ExecShell "open" "${WEBVIEW2_DOWNLOAD}"
  ${EndIf}
FunctionEnd

Section "osFoundry" SecApp
  SectionIn RO
  SetShellVarContext current
  Push "$INSTDIR\${APP_EXE}"
  Call RefuseWhileRunning
  Push "$INSTDIR\${CLI_EXE}"
  Call RefuseWhileRunning

  SetOutPath "$INSTDIR"
  File "/oname=${APP_EXE}" "${BIN_DIR}/osfoundry-desktop.exe"
  File "/oname=${CLI_EXE}" "${BIN_DIR}/osfoundry.exe"
  File "/oname=osfoundry.png" "${ICON_PNG}"
  ; The documents `osfoundry CMD --help` points at, in the doc folder beside
  ; the command line, with their paths in the source tree.
  SetOutPath "$INSTDIR\doc"
  File "/oname=README.md" "${SRC_DIR}/README.md"
  SetOutPath "$INSTDIR\doc\docs"
  File "${SRC_DIR}/docs/*.md"
  SetOutPath "$INSTDIR\doc\rules"
  File "/oname=README.md" "${SRC_DIR}/rules/README.md"
  SetOutPath "$INSTDIR"
  WriteUninstaller "$INSTDIR\${UNINSTALL_EXE}"

  CreateShortcut "$SMPROGRAMS\osFoundry.lnk" "$INSTDIR\${APP_EXE}" "" "$INSTDIR\${APP_EXE}" 0

  ; osfoundry:// links (notification clicks) and the toast identity.
  WriteRegStr HKCU "${URL_KEY}" "" "URL:osFoundry link"
  WriteRegStr HKCU "${URL_KEY}" "URL Protocol" ""
  WriteRegStr HKCU "${URL_KEY}\DefaultIcon" "" "$INSTDIR\${APP_EXE},0"
  WriteRegStr HKCU "${URL_KEY}\shell\open\command" "" '"$INSTDIR\${APP_EXE}" "%1"'
  WriteRegStr HKCU "${AUMID_KEY}" "DisplayName" "osFoundry"
  WriteRegStr HKCU "${AUMID_KEY}" "IconUri" "$INSTDIR\osfoundry.png"

  ; Settings → Apps lists it, with its uninstaller.
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "osFoundry"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\${APP_EXE},0"
  WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "osFoundry"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" '"$INSTDIR\${UNINSTALL_EXE}"'
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\${UNINSTALL_EXE}" /S'
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKCU "${UNINST_KEY}" "EstimatedSize" "$0"

  Call AddToPath
  Call CheckWebView2
SectionEnd

Section "Uninstall"
  SetShellVarContext current
  Push "$INSTDIR\${APP_EXE}"
  Call un.RefuseWhileRunning
  Push "$INSTDIR\${CLI_EXE}"
  Call un.RefuseWhileRunning

  Call un.RemoveFromPath
  Delete "$SMPROGRAMS\osFoundry.lnk"

  ; The link handler follows the copy of the app that ran last; remove it
  ; only when it is this copy.
  ReadRegStr $0 HKCU "${URL_KEY}\shell\open\command" ""
  ${If} $0 == '"$INSTDIR\${APP_EXE}" "%1"'
    DeleteRegKey HKCU "${URL_KEY}"
    DeleteRegKey HKCU "${AUMID_KEY}"
  ${EndIf}
  DeleteRegKey HKCU "${UNINST_KEY}"

  ; Only the files the installer put there; the folder goes only when empty.
  Delete "$INSTDIR\${APP_EXE}"
  Delete "$INSTDIR\${CLI_EXE}"
  Delete "$INSTDIR\osfoundry.png"
  Delete "$INSTDIR\doc\README.md"
  Delete "$INSTDIR\doc\docs\*.md"
  Delete "$INSTDIR\doc\rules\README.md"
  RMDir "$INSTDIR\doc\docs"
  RMDir "$INSTDIR\doc\rules"
  RMDir "$INSTDIR\doc"
  Delete "$INSTDIR\${UNINSTALL_EXE}"
  RMDir "$INSTDIR"
SectionEnd
