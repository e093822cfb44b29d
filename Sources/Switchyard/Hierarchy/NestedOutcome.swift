/// What a request to a machine of a hierarchy came to.
@usableFromInline
enum NestedOutcome {
    /// The hierarchy took a step.
    case moved
    /// Nothing moved: why routes refused, `nil` when none covered the request.
    case refused(Refusal?)
}
