/// `value` as `Target`, which is its own type under another generic name:
/// what generic code returns once it has compared the two types and found
/// them equal, without a dynamic cast (which, unspecialised, costs a call
/// into the runtime and may box a function value).
///
/// Invariant: `Target` is `Source`. Debug builds check it; release builds
/// trust it.
@inlinable
@inline(__always)
func identityCast<Source, Target>(_ value: Source, to type: Target.Type) -> Target {
    assert(Source.self == Target.self, "Switchyard: a \(Source.self) was cast as \(Target.self), another type")
    return unsafeBitCast(value, to: Target.self)
}
