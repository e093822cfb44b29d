/// How many non-empty buckets a table has of each key shape, so that a
/// decision skips the hash look-up of a shape that has no bucket at all.
///
/// Shapes are numbered by specificity: 0 is (concrete, concrete), 1 is
/// (concrete, `.any`), 2 is (`.any`, concrete), 3 is (`.any`, `.any`).
@usableFromInline
struct BucketShapes {
    @usableFromInline var counts: (Int, Int, Int, Int) = (0, 0, 0, 0)

    @inlinable
    init() {}

    @inlinable
    static func shape(_ first: Bool, _ second: Bool) -> Int {
        (first ? 0 : 2) + (second ? 0 : 1)
    }

    @inlinable
    func contains(_ shape: Int) -> Bool {
        switch shape {
        case 0: counts.0 > 0
        case 1: counts.1 > 0
        case 2: counts.2 > 0
        default: counts.3 > 0
        }
    }

    @inlinable
    mutating func adjust(_ shape: Int, by delta: Int) {
        switch shape {
        case 0: counts.0 += delta
        case 1: counts.1 += delta
        case 2: counts.2 += delta
        default: counts.3 += delta
        }
    }
}
