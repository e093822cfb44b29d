/// Where an entry lies in a memo (`Memo`: ``StepMemo`` or ``ChoiceMemo``),
/// as of the memo's generation, which moves each time the memo forgets
/// what it holds: a mark kept across a forgetting names no entry, even if
/// the index is in use again.
struct MemoMark<Memo: ~Copyable> {
    @usableFromInline var entry: Int32
    @usableFromInline var generation: UInt32

    /// No entry.
    @inlinable static var none: MemoMark { MemoMark(entry: -1, generation: 0) }

    @inlinable
    init(entry: Int32, generation: UInt32) {
        self.entry = entry
        self.generation = generation
    }

    /// The entry, if the memo still holds it: the memo is in `generation`
    /// (the one the mark was made in) and was filled for the tree's layout
    /// `memoLayout`, which is the layout `layout` the caller reads for.
    @inlinable
    func entry(inGeneration generation: UInt32, filledFor memoLayout: UInt32?, askedFor layout: UInt32) -> Int32? {
        entry >= 0 && self.generation == generation && memoLayout == layout ? entry : nil
    }
}
