//! Cross-cutting consistency checks live in tests/*.rs.
