/// Stops the program with `message` unless `condition` holds, in every build.
///
/// The library's checks for programmer misuse go through this rather than
/// `precondition`, whose message optimised builds drop: a crash report from a
/// shipped app must still name the misuse.
///
/// - Parameters:
///   - condition: What correct use guarantees.
///   - message: Names the misuse and, where it helps, the fix.
///   - file: The file to report, the caller's by default.
///   - line: The line to report, the caller's by default.
@inlinable
@inline(__always)
func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() {
        fatalError(message(), file: file, line: line)
    }
}
