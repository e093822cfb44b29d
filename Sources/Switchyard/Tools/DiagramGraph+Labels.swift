// What a drawn diagram shows of a description: the one rule the DOT and the
// Mermaid writer both call, each escaping what it gets for its own syntax, so
// that every label reaches Graphviz, Mermaid and the SVG they write as written.

extension DiagramGraph {
    /// The most Unicode scalars of a description a label shows. Well under
    /// the 16,384 bytes Graphviz scans of a quoted string, even with every
    /// scalar escaped or spelled out, and a label longer than this is not
    /// read in a diagram anyway.
    static let labelLimit = 1_000

    /// What a label shows for a scalar of a description.
    enum Shown: Equatable {
        /// A scalar the label holds as it is.
        case scalar(Unicode.Scalar)
        /// A line break: `\n`, `\r\n`, a lone `\r`, U+0085, U+2028 or U+2029.
        case lineBreak
    }

    /// `text`, or, when it has more than ``labelLimit`` scalars, its first
    /// whole characters and `…`, no more than ``labelLimit`` scalars in all.
    static func shortened(_ text: String) -> String {
        guard !text.unicodeScalars.dropFirst(labelLimit).isEmpty else { return text }
        var kept = 0
        var end = text.startIndex
        while end < text.endIndex {
            // One scalar is left for the ellipsis.
            kept += text[end].unicodeScalars.count
            guard kept < labelLimit else { break }
            end = text.index(after: end)
        }
        return text[..<end] + "…"
    }

    /// Calls `body` with what a label shows of each scalar of `text`, in
    /// order: every line break as ``Shown/lineBreak``; a control character
    /// other than a tab, or a noncharacter, spelled out as its Swift escape
    /// (`\u{1B}`), one scalar at a time; any other scalar as it is.
    ///
    /// Graphviz stops reading a file at a NUL, and the SVG Graphviz and
    /// Mermaid write is not well-formed XML with a control character or
    /// U+FFFE in it; spelled out, such a character is seen rather than lost.
    static func forEachShown(in text: String, _ body: (Shown) -> Void) {
        var isAfterCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { isAfterCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\n" where isAfterCarriageReturn:
                continue
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                body(.lineBreak)
            case "\t":
                body(.scalar(scalar))
            default:
                guard isSpelledOut(scalar) else {
                    body(.scalar(scalar))
                    continue
                }
                for spelled in "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars {
                    body(.scalar(spelled))
                }
            }
        }
    }

    /// Whether `scalar` is a control character (C0, DEL or C1) or a noncharacter.
    private static func isSpelledOut(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || scalar.value >= 0xFDD0 && scalar.properties.isNoncharacterCodePoint
    }
}
