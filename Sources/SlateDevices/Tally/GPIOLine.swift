import CGpiod
import SlateSystem

/// A GPIO line requested as an output through libgpiod (a board's tally LED
/// or relay), held until released. Active-low lines are driven low to light.
public final class GPIOLine {
    public let chip: String
    public let offset: Int
    private let handle: OpaquePointer
    private let line: OpaquePointer

    /// Requests line `offset` of `chip` (`gpiochip0`, `/dev/gpiochip0`) as an output, dark.
    public init(chip: String, offset: Int, activeLow: Bool, consumer: String = "slate-tally") throws(OperationError) {
        guard let handle = gpiod_chip_open_lookup(chip) else {
            throw OperationError(
                "open the GPIO chip", cause: SystemCallError("gpiod_chip_open_lookup", subject: chip, errno: Syscall.lastError))
        }
        guard let line = gpiod_chip_get_line(handle, UInt32(offset)) else {
            let error = Syscall.lastError
            gpiod_chip_close(handle)
            throw OperationError(
                "find line \(offset) of the GPIO chip", cause: SystemCallError("gpiod_chip_get_line", subject: chip, errno: error)
            )
        }
        let flags = activeLow ? Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
        guard gpiod_line_request_output_flags(line, consumer, flags, 0) == 0 else {
            let error = Syscall.lastError
            gpiod_chip_close(handle)
            throw OperationError(
                "request line \(offset) of the GPIO chip as an output",
                cause: SystemCallError("gpiod_line_request_output", subject: chip, errno: error),
                note: "another program may hold it (gpioinfo says which)")
        }
        self.chip = chip
        self.offset = offset
        self.handle = handle
        self.line = line
    }

    deinit {
        gpiod_line_release(line)
        gpiod_chip_close(handle)
    }

    /// Lights (drives active) or darkens the line.
    public func set(_ on: Bool) throws(OperationError) {
        guard gpiod_line_set_value(line, on ? 1 : 0) == 0 else {
            throw OperationError(
                "set line \(offset) of the GPIO chip",
                cause: SystemCallError("gpiod_line_set_value", subject: chip, errno: Syscall.lastError))
        }
    }
}
