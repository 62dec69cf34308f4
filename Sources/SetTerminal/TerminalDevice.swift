import SetSocket

#if canImport(Glibc)
    import Glibc
#endif

/// The controlling terminal: raw mode, the alternate screen, its size, and putting it back.
///
/// The terminal is process-wide state, so this is an enum with static members. Whatever way the
/// program ends — `/quit`, Ctrl-C, SIGTERM, `exit`, a crash — ``restore()`` runs: from the exit
/// path, from `atexit`, and from a handler for the fatal signals that then re-raises the signal.
public enum TerminalDevice {
    /// Leaves synchronized output, resets colours, shows the cursor, and leaves the alternate screen.
    static let leaveSequence = Array("\u{1B}[?2026l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
    /// Enters the alternate screen, clears it, and homes the cursor.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[2J\u{1B}[H"

    // Written before raw mode starts and only read after, by `restore()` — also from a signal handler,
    // which is why this is plain memory and not behind a lock.
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var isRaw = false
    nonisolated(unsafe) private static var isInstalled = false

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The size of the terminal on standard output, or `nil` if it has none.
    public static func size() -> TerminalSize? {
        var ws = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else {
            return nil
        }
        return TerminalSize(columns: Int(ws.ws_col), rows: Int(ws.ws_row))
    }

    /// Puts the keyboard in raw mode (keys arrive one by one, not echoed, Ctrl-C as a byte) and
    /// switches to the alternate screen, so the shell's screen comes back untouched at the end.
    public static func enterFullScreen() -> Bool {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return false }
        installRestoreHandlers()
        var raw = saved
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        // Output processing stays on, so a stray message to stderr still starts at column 0.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return false }
        isRaw = true
        write(enterSequence)
        return true
    }

    /// Puts the terminal back as it was; safe to call more than once, and from a signal handler.
    public static func restore() {
        guard isRaw else { return }
        isRaw = false
        leaveSequence.withUnsafeBytes { write($0, to: STDOUT_FILENO) }
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    }

    /// Leaves full-screen mode for a shell job stop (Ctrl-Z), and comes back when continued.
    public static func suspend() {
        guard isRaw else { return }
        restore()
        raise(SIGTSTP)
        _ = enterFullScreen()
    }

    /// Writes all of `text` to standard output (or to `fd`, e.g. standard error), waiting as needed.
    public static func write(_ text: String, to fd: Int32 = STDOUT_FILENO) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { write($0, to: fd) }
    }

    /// Writes all of `bytes` to `fd`, waiting as needed: the one place the client writes to the
    /// terminal. It allocates nothing, so ``restore()`` may call it from a signal handler.
    private static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) {
        // A terminal that is gone leaves nothing useful to do with the error.
        FileDescriptor.writeAll(bytes, to: fd)
    }

    private static func installRestoreHandlers() {
        guard !isInstalled else { return }
        isInstalled = true
        atexit { TerminalDevice.restore() }
        for fatal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
            signal(fatal) { number in
                TerminalDevice.restore()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }
}
