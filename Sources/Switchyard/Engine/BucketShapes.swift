/// How many non-empty buckets a table has of each key shape, so that a
/// decision skips the hash look-up of a shape that has no bucket at all.
///
/// Shapes are numbered by specificity: 0 is (concrete, concrete), 1 is
/// (concrete, `.any`), 2 is (`.any`, concrete), 3 is (`.any`, `.any`).
@usableFromInline
struct BucketShapes {
    @usableFromInline var counts: (Int, Int, Int, Int) = (0, 0, 0, 0)
    /// Bit `shape` is set while that shape has a bucket: what ``contains(_:)``
    /// reads, with a shift rather than a jump through a table.
    @usableFromInline var occupied: UInt8 = 0

    @inlinable
    init() {}

    @inlinable
    static func shape(_ first: Bool, _ second: Bool) -> Int {
        (first ? 0 : 2) + (second ? 0 : 1)
    }

    @inlinable
    func contains(_ shape: Int) -> Bool {
        occupied & 1 << shape != 0
    }

    @inlinable
    mutating func adjust(_ shape: Int, by delta: Int) {
        let count: Int
        switch shape {
        case 0:
            counts.0 += delta
            count = counts.0
        case 1:
            counts.1 += delta
            count = counts.1
        case 2:
            counts.2 += delta
            count = counts.2
        default:
            counts.3 += delta
            count = counts.3
        }
        let bit: UInt8 = 1 << shape
        occupied = count > 0 ? occupied | bit : occupied & ~bit
    }
}
