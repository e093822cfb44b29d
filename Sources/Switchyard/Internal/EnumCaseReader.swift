/// Reads which case an enum value is, without reflecting and without allocating.
///
/// Every enum type's metadata points to its value witness table, the table of
/// functions the compiler itself calls to copy, destroy and `switch` over
/// values of a type it does not know at compile time (an enum from a
/// resilient library, a generic parameter). Its layout is part of Swift's
/// stable ABI (swift/docs/ABI/TypeMetadata.rst, "Value Witness Tables"); for
/// enums it ends with `getEnumTag`, which returns the case's index: cases with
/// a payload first, in declaration order, then the cases without one.
///
/// The function is declared with Swift's calling convention; for two pointer
/// arguments and a 32-bit result that convention passes and returns in the
/// same registers as C's on every platform Swift supports, which is how it
/// is called here. Debug builds check every answer against `Mirror` (see
/// ``EnumCaseLedger``), whoever asks, and the tests check enums of every
/// layout (payload and empty cases, same-typed payloads, class payloads,
/// indirect, generic and single-case enums).
///
/// This reads that one function pointer and calls it. Nothing is called by a
/// private symbol name, nothing is written, and a type that is not an enum
/// (its metadata kind says so) gets no reader: callers then fall back to
/// `Mirror`. Where function pointers in that table are signed (arm64e), the
/// reader is not made either.
@usableFromInline
struct EnumCaseReader {
    /// `getEnumTag(value, metadata) -> UInt32`.
    @usableFromInline
    typealias GetTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32

    @usableFromInline let metadata: UnsafeRawPointer
    @usableFromInline let getTag: GetTag

    /// The reader for `type`, or `nil` if it is not an enum (or the platform
    /// signs the table's pointers).
    init?<Value>(for type: Value.Type) {
        #if _ptrauth(_arm64e)
            return nil
        #else
            let metadata = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
            // Metadata kinds: 0x201 is an enum, 0x202 `Optional`.
            let kind = metadata.load(as: UInt.self)
            guard kind == 0x201 || kind == 0x202 else { return nil }
            let word = MemoryLayout<UnsafeRawPointer>.size
            let table = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
            // Eight functions, `size` and `stride` (a word each), `flags` and
            // `extraInhabitantCount` (four bytes each), then `getEnumTag`.
            // The flags say whether the table has the enum functions at all
            // (`HasEnumWitnesses`, 0x0020_0000) and whether it is complete
            // (`Incomplete`, 0x0040_0000, is clear once the type is set up):
            // without both, no reader, and patterns reflect instead.
            let flags = table.load(fromByteOffset: 10 * word, as: UInt32.self)
            guard flags & 0x0020_0000 != 0, flags & 0x0040_0000 == 0 else { return nil }
            let function = table.load(fromByteOffset: 10 * word + 8, as: UnsafeRawPointer.self)
            self.metadata = metadata
            self.getTag = unsafeBitCast(function, to: GetTag.self)
        #endif
    }

    /// The index of `value`'s case.
    ///
    /// - Complexity: One indirect call; no allocation. Debug builds also
    ///   reflect, to check the answer.
    @inlinable
    func caseIndex<Value>(of value: Value) -> Int {
        let index = withUnsafePointer(to: value) { Int(getTag(UnsafeRawPointer($0), metadata)) }
        // A Swift runtime once returned wrong enum tags in release builds
        // only, which would make a definition match one case's clauses for
        // another: debug builds check every answer, on every path.
        assert(
            EnumCaseLedger.agrees(index, with: value),
            "The case index read for \(Value.self) (\(index) for \(value)) disagrees with Mirror: "
                + "report this type; release builds would match its cases wrongly")
        return index
    }
}
