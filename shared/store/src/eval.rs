//! Conditions and update actions evaluated in process, with DynamoDB's
//! semantics, for adapters whose engine does not evaluate them itself
//! (SQLite). The DynamoDB adapter translates them into expressions instead;
//! the contract tests hold both to the same answers.

use std::cmp::Ordering;

use serde_json::Value;

use crate::{Condition, Item, StoreError, UpdateAction, PK, SK};

/// Whether `condition` holds on `current` (None = no stored item).
pub fn holds(condition: &Condition, current: Option<&Item>) -> bool {
    let attr = |name: &str| current.and_then(|item| item.get(name));
    match condition {
        Condition::Exists(a) => attr(a).is_some(),
        Condition::NotExists(a) => attr(a).is_none(),
        Condition::Eq(a, v) => attr(a).is_some_and(|x| same(x, v)),
        // DynamoDB: `a <> :v` is true when `a` is missing.
        Condition::Ne(a, v) => !attr(a).is_some_and(|x| same(x, v)),
        Condition::Lt(a, v) => compare(attr(a), v).is_some_and(Ordering::is_lt),
        Condition::Le(a, v) => compare(attr(a), v).is_some_and(Ordering::is_le),
        Condition::Gt(a, v) => compare(attr(a), v).is_some_and(Ordering::is_gt),
        Condition::Ge(a, v) => compare(attr(a), v).is_some_and(Ordering::is_ge),
        Condition::And(all) => all.iter().all(|c| holds(c, current)),
        Condition::Or(any) => any.iter().any(|c| holds(c, current)),
    }
}

/// Equality as DynamoDB sees it: numbers by value (1 = 1.0), the rest as JSON.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(_), Value::Number(_)) => compare(Some(a), b) == Some(Ordering::Equal),
        _ => a == b,
    }
}

/// Order between two values of the same scalar type; None across types.
fn compare(a: Option<&Value>, b: &Value) -> Option<Ordering> {
    match (a?, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => Some(x.cmp(&y)),
            _ => x.as_f64()?.partial_cmp(&y.as_f64()?),
        },
        // Rust compares strings by UTF-8 bytes, as DynamoDB does.
        (Value::String(x), Value::String(y)) => Some(x.as_str().cmp(y.as_str())),
        _ => None,
    }
}

fn target(action: &UpdateAction) -> &str {
    match action {
        UpdateAction::Set(a, _) | UpdateAction::SetIfAbsent(a, _) | UpdateAction::Add(a, _) | UpdateAction::Remove(a) => a,
    }
}

/// The rules DynamoDB applies to an update before looking at the item: at
/// least one action, never on a key attribute, each attribute once.
pub fn check_actions(actions: &[UpdateAction]) -> Result<(), StoreError> {
    if actions.is_empty() {
        return Err(StoreError::Invalid("an update needs at least one action".into()));
    }
    let mut seen = std::collections::HashSet::new();
    for name in actions.iter().map(target) {
        if name == PK || name == SK {
            return Err(StoreError::Invalid(format!("an update cannot change the key attribute {name}")));
        }
        if !seen.insert(name) {
            return Err(StoreError::Invalid(format!("an update names the attribute {name} more than once")));
        }
    }
    Ok(())
}

/// Applies update actions to `item` (an absent item starts as just its key).
pub fn apply(item: &mut Item, actions: &[UpdateAction]) -> Result<(), StoreError> {
    check_actions(actions)?;
    for action in actions {
        match action {
            UpdateAction::Set(a, v) => {
                item.insert(a.clone(), v.clone());
            }
            UpdateAction::SetIfAbsent(a, v) => {
                item.entry(a.clone()).or_insert_with(|| v.clone());
            }
            UpdateAction::Add(a, n) => {
                let current = match item.get(a) {
                    None => 0,
                    Some(Value::Number(x)) => x
                        .as_i64()
                        .ok_or_else(|| StoreError::Invalid(format!("cannot add to {a}: it is not a whole number")))?,
                    Some(_) => return Err(StoreError::Invalid(format!("cannot add to {a}: it is not a number"))),
                };
                let sum = current
                    .checked_add(*n)
                    .ok_or_else(|| StoreError::Invalid(format!("adding {n} to {a} overflows")))?;
                item.insert(a.clone(), Value::from(sum));
            }
            UpdateAction::Remove(a) => {
                item.remove(a);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn item(v: Value) -> Item {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn missing_attributes_fail_every_comparison_but_not_equal() {
        let it = item(json!({"PK": "a", "SK": "b"}));
        assert!(!holds(&Condition::Eq("x".into(), json!(1)), Some(&it)));
        assert!(holds(&Condition::Ne("x".into(), json!(1)), Some(&it)));
        assert!(!holds(&Condition::Lt("x".into(), json!(1)), Some(&it)));
        assert!(!holds(&Condition::Ge("x".into(), json!(1)), Some(&it)));
        assert!(holds(&Condition::item_absent(), None));
        assert!(!holds(&Condition::item_exists(), None));
    }

    #[test]
    fn numbers_compare_by_value_and_types_do_not_mix() {
        let it = item(json!({"PK": "a", "SK": "b", "n": 2, "s": "10"}));
        assert!(holds(&Condition::Eq("n".into(), json!(2.0)), Some(&it)));
        assert!(holds(&Condition::Lt("n".into(), json!(10)), Some(&it)));
        assert!(!holds(&Condition::Lt("s".into(), json!(20)), Some(&it)), "string vs number never holds");
        assert!(holds(&Condition::Lt("s".into(), json!("9")), Some(&it)), "strings compare by bytes");
    }

    #[test]
    fn add_refuses_non_numbers_and_overflow() {
        let mut it = item(json!({"PK": "a", "SK": "b", "s": "x", "big": i64::MAX}));
        assert!(apply(&mut it, &[UpdateAction::Add("s".into(), 1)]).is_err());
        assert!(apply(&mut it, &[UpdateAction::Add("big".into(), 1)]).is_err());
        assert!(apply(&mut it, &[UpdateAction::Add("n".into(), 3), UpdateAction::Add("n".into(), -1)]).is_err(), "one attribute, one action");
        apply(&mut it, &[UpdateAction::Add("n".into(), 3)]).unwrap();
        apply(&mut it, &[UpdateAction::Add("n".into(), -1)]).unwrap();
        assert_eq!(it["n"], json!(2));
        assert!(apply(&mut it, &[UpdateAction::Set("PK".into(), json!("z"))]).is_err());
    }
}
