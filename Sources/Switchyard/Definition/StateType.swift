/// A type whose values are the states of a ``Machine``.
///
/// Conform an enum (or any `Hashable` type) to use it as a machine's state:
///
/// ```swift
/// enum Door: StateType { case open, closed, locked }
/// ```
///
/// Nothing beyond `Hashable` is required. States may carry associated values;
/// route them with ``Machine/addRouteMapping(_:)`` or
/// ``Machine/addStateRouteMapping(_:)``.
public protocol StateType: Hashable {}
