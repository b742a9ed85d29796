//! Views and the JSON Patches between them (RFC 6902: `add`, `remove`, `replace`): after each
//! change a page is sent the patch from the view it holds to the new one.
//!
//! A game's view is either a [`Value`] or a typed struct of its own. A typed view is built
//! without a key or a map per field and compared field by field; only the parts that changed
//! are turned into [`Value`]s, to be diffed like any other ([`field`], [`list`], [`member`];
//! a map keyed by numbers replaces only the entries that differ). Applied to the old view's
//! JSON, the patch gives the new one's.

use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a game shows every page: serialized whole on `sync`, sent as a patch after a change.
pub trait View: Serialize + Send + Sync + 'static {
    /// Appends to `ops` the patch that turns `self` into `new`; `path` is where both sit (a
    /// JSON Pointer, `""` for the whole view), and is left as it was.
    fn diff(&self, new: &Self, path: &mut String, ops: &mut Vec<Op>);
}

impl View for Value {
    fn diff(&self, new: &Value, path: &mut String, ops: &mut Vec<Op>) {
        diff(self, new, path, ops);
    }
}

/// One operation of a JSON Patch: `add`, `remove` or `replace` (the only ones the server
/// sends). Typed, not a JSON object: building and dropping a map for each operation showed in
/// the benchmark of a scene (`benches/publish.rs`). Its JSON is RFC 6902's, `value` left out
/// of a `remove`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Op {
    /// `add`, `remove` or `replace`.
    pub op: &'static str,
    /// Where, as a JSON Pointer.
    pub path: String,
    /// What is added or put in place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

impl Op {
    /// Adds `value` at `path` (a member, or an array's element at that index).
    pub fn add(path: &str, value: Value) -> Op {
        Op {
            op: "add",
            path: path.to_owned(),
            value: Some(value),
        }
    }

    /// Removes what is at `path`.
    pub fn remove(path: &str) -> Op {
        Op {
            op: "remove",
            path: path.to_owned(),
            value: None,
        }
    }

    /// Puts `value` in place of what is at `path`.
    pub fn replace(path: &str, value: Value) -> Op {
        Op {
            op: "replace",
            path: path.to_owned(),
            value: Some(value),
        }
    }
}

/// A part of a view that the next view may take over as it is, when nothing it shows changed
/// ([`crate::game::Game::view_after`]): shared, not copied, and equal at once when it is the
/// very same part. Its JSON is the part's.
#[derive(Debug)]
pub struct Kept<T>(Arc<T>);

impl<T> Kept<T> {
    /// `part`, to be kept.
    pub fn new(part: T) -> Kept<T> {
        Kept(Arc::new(part))
    }

    /// Whether `other` is this very part, taken over (not only an equal one).
    pub fn same(&self, other: &Kept<T>) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Clone for Kept<T> {
    fn clone(&self) -> Kept<T> {
        Kept(Arc::clone(&self.0))
    }
}

impl<T> std::ops::Deref for Kept<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: PartialEq> PartialEq for Kept<T> {
    fn eq(&self, other: &Kept<T>) -> bool {
        self.same(other) || *self.0 == *other.0
    }
}

impl<T: Serialize> Serialize for Kept<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<T: View> View for Kept<T> {
    fn diff(&self, new: &Kept<T>, path: &mut String, ops: &mut Vec<Op>) {
        if !self.same(new) {
            self.0.diff(&new.0, path, ops);
        }
    }
}

/// The patch of member `name` of an object, from `old` to `new` (nothing if they are equal).
pub fn field<T: Serialize + PartialEq>(
    old: &T,
    new: &T,
    name: &str,
    path: &mut String,
    ops: &mut Vec<Op>,
) {
    if old != new {
        at_member(path, name, |path| by_value(old, new, path, ops));
    }
}

/// Runs `patch` with `path` pointing at member `name`, then leaves `path` as it was.
fn at_member(path: &mut String, name: &str, patch: impl FnOnce(&mut String)) {
    let at = path.len();
    push_token(path, name);
    patch(path);
    path.truncate(at);
}

/// The patch of array member `name` of an object, element by element as [`diff`] does for
/// arrays; elements that differ are diffed as views of their own.
pub fn list<T: View + PartialEq>(
    old: &[T],
    new: &[T],
    name: &str,
    path: &mut String,
    ops: &mut Vec<Op>,
) {
    // No comparison of the whole lists first: each element is compared once, below.
    at_member(path, name, |path| elements(old, new, path, ops));
}

/// The patch of the array at `path`: the elements that differ, each diffed as a view of its
/// own, then what was removed from the end (backwards, so that each index is still there when
/// removed), then what was added.
fn elements<T: View + PartialEq>(old: &[T], new: &[T], path: &mut String, ops: &mut Vec<Op>) {
    let at = path.len();
    let common = old.len().min(new.len());
    for (i, (was, is)) in old.iter().zip(new).enumerate().take(common) {
        if was != is {
            push_token(path, &i.to_string());
            was.diff(is, path, ops);
            path.truncate(at);
        }
    }
    for i in (common..old.len()).rev() {
        push_token(path, &i.to_string());
        ops.push(Op::remove(path));
        path.truncate(at);
    }
    for (i, is) in new.iter().enumerate().skip(common) {
        push_token(path, &i.to_string());
        ops.push(Op::add(path, to_value(is)));
        path.truncate(at);
    }
}

/// The patch from `old` to `new` through their JSON: for small parts, where comparing member
/// by member would save little.
pub fn by_value<T: Serialize>(old: &T, new: &T, path: &mut String, ops: &mut Vec<Op>) {
    diff(&to_value(old), &to_value(new), path, ops);
}

/// The patch of member `name` of an object that is a view of its own (nothing if equal).
pub fn member<T: View + PartialEq>(
    old: &T,
    new: &T,
    name: &str,
    path: &mut String,
    ops: &mut Vec<Op>,
) {
    if old != new {
        at_member(path, name, |path| old.diff(new, path, ops));
    }
}

/// A map keyed by numbers (a JSON object whose keys are those numbers) entry by entry: only the
/// entries that differ become JSON, each replaced whole.
impl<T: Serialize + PartialEq + Send + Sync + 'static> View for BTreeMap<u32, T> {
    fn diff(&self, new: &Self, path: &mut String, ops: &mut Vec<Op>) {
        for (key, was) in self {
            let is = new.get(key);
            if is != Some(was) {
                at_member(path, &key.to_string(), |path| {
                    ops.push(match is {
                        Some(is) => Op::replace(path, to_value(is)),
                        None => Op::remove(path),
                    });
                });
            }
        }
        for (key, is) in new.iter().filter(|(key, _)| !self.contains_key(key)) {
            at_member(path, &key.to_string(), |path| {
                ops.push(Op::add(path, to_value(is)));
            });
        }
    }
}

/// An optional part (`null` in the JSON when absent): patched as a view of its own while it
/// stays, replaced whole when it comes or goes.
impl<T: View + PartialEq> View for Option<T> {
    fn diff(&self, new: &Option<T>, path: &mut String, ops: &mut Vec<Op>) {
        match (self, new) {
            (Some(was), Some(is)) => was.diff(is, path, ops),
            _ => ops.push(Op::replace(path, to_value(new))),
        }
    }
}

/// [`View::diff`] of a struct member by member, inside its `impl View`:
/// `diff_members!(old, new, path, ops; a, b; list: c; view: d)` compares `old.a` with `new.a`
/// and so on ([`field`]), each member named in the patch as in the struct; members after
/// `list:` are arrays of views ([`list`]), those after `view:` views of their own ([`member`]).
/// Every member must be named: a new one left out does not compile.
macro_rules! diff_members {
    ($old:expr, $new:expr, $path:expr, $ops:expr; $($name:ident),*
        $(; list: $($items:ident),*)? $(; view: $($views:ident),*)?) => {{
        let Self { $($name: _,)* $($($items: _,)*)? $($($views: _,)*)? } = $old;
        $( $crate::patch::field(&$old.$name, &$new.$name, stringify!($name), $path, $ops); )*
        $($( $crate::patch::list(&$old.$items, &$new.$items, stringify!($items), $path, $ops); )*)?
        $($( $crate::patch::member(&$old.$views, &$new.$views, stringify!($views), $path, $ops); )*)?
    }};
}
pub(crate) use diff_members;

/// A view's part as JSON. Views hold only what JSON can say (no map keyed by anything but
/// strings), so this cannot fail; `null` if it ever did.
fn to_value<T: Serialize>(part: &T) -> Value {
    serde_json::to_value(part).unwrap_or(Value::Null)
}

/// The JSON Patch (RFC 6902: `add`, `remove`, `replace`) from `old` to `new`, appended to
/// `ops`; `path` is where `old` sits. Equal subtrees are skipped after one comparison, which
/// allocates nothing: `json_patch::diff` walks every node with pointer tokens and cost more
/// than sending the whole view at 2,000 players (loadgen: p99 205 → 366 ms).
pub fn diff(old: &Value, new: &Value, path: &mut String, ops: &mut Vec<Op>) {
    if old == new {
        return;
    }
    let at = path.len();
    match (old, new) {
        (Value::Object(before), Value::Object(after)) => {
            for (key, was) in before {
                push_token(path, key);
                match after.get(key) {
                    Some(is) => diff(was, is, path, ops),
                    None => ops.push(Op::remove(path)),
                }
                path.truncate(at);
            }
            for (key, is) in after {
                if !before.contains_key(key) {
                    push_token(path, key);
                    ops.push(Op::add(path, is.clone()));
                    path.truncate(at);
                }
            }
        }
        (Value::Array(before), Value::Array(after)) => elements(before, after, path, ops),
        _ => ops.push(Op::replace(path, new.clone())),
    }
}

/// `/token` with JSON Pointer's escapes (`~` as `~0`, `/` as `~1`).
pub fn push_token(path: &mut String, token: &str) {
    path.push('/');
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::diff;
    use serde_json::{Value, json};

    fn patched(old: &Value, new: &Value) -> Value {
        let mut ops = Vec::new();
        diff(old, new, &mut String::new(), &mut ops);
        let patch: json_patch::Patch =
            serde_json::from_value(serde_json::to_value(&ops).unwrap()).unwrap();
        let mut doc = old.clone();
        json_patch::patch(&mut doc, &patch).unwrap();
        doc
    }

    #[test]
    fn a_patch_turns_the_old_view_into_the_new_one() {
        let old = json!({"a": 1, "b": [1, 2, 3], "c": {"d/e": "x", "f~g": [true]}, "gone": null});
        for new in [
            json!({"a": 2, "b": [1, 2, 3], "c": {"d/e": "x", "f~g": [true]}, "gone": null}),
            json!({"a": 1, "b": [1], "c": {"d/e": "y", "f~g": []}, "new": {"h": [1, {"i": 2}]}}),
            json!({"a": 1, "b": [1, 5, 3, 4, 5], "c": "flat"}),
            json!([1, 2]),
            json!({}),
        ] {
            assert_eq!(patched(&old, &new), new);
            assert_eq!(patched(&new, &old), old);
        }
    }

    #[test]
    fn a_map_by_number_is_patched_entry_by_entry() {
        use super::View;
        use std::collections::BTreeMap;
        let old: BTreeMap<u32, [f64; 2]> =
            [(1, [0.5, 0.25]), (2, [0.1, 0.9]), (7, [1.0, 0.0])].into();
        let new: BTreeMap<u32, [f64; 2]> =
            [(1, [0.5, 0.25]), (7, [0.75, 0.0]), (12, [0.2, 0.3])].into();
        let mut ops = Vec::new();
        old.diff(&new, &mut String::from("/finale_if"), &mut ops);
        // Entry 1 is the same: no operation names it.
        assert_eq!(ops.len(), 3, "{ops:?}");
        let patch: json_patch::Patch =
            serde_json::from_value(serde_json::to_value(&ops).unwrap()).unwrap();
        let mut doc = json!({"finale_if": old});
        json_patch::patch(&mut doc, &patch).unwrap();
        assert_eq!(doc, json!({"finale_if": new}));
    }

    #[test]
    fn an_optional_part_is_patched_while_it_stays_and_replaced_when_it_comes_or_goes() {
        use super::View;
        use std::collections::BTreeMap;
        let some =
            |entries: &[(u32, f64)]| Some(entries.iter().copied().collect::<BTreeMap<_, _>>());
        let states = [
            None,
            some(&[(1, 0.5)]),
            some(&[(1, 0.5), (2, 0.25)]),
            some(&[(2, 1.0)]),
            None,
        ];
        for pair in states.windows(2) {
            let (old, new) = (&pair[0], &pair[1]);
            let mut ops = Vec::new();
            old.diff(new, &mut String::from("/odds"), &mut ops);
            let patch: json_patch::Patch =
                serde_json::from_value(serde_json::to_value(&ops).unwrap()).unwrap();
            let mut doc = json!({"odds": old});
            json_patch::patch(&mut doc, &patch).unwrap();
            assert_eq!(doc, json!({"odds": new}), "{old:?} → {new:?}");
        }
    }

    #[test]
    fn an_unchanged_view_needs_no_operation() {
        let view = json!({"a": [1, {"b": 2}]});
        let mut ops = Vec::new();
        diff(&view, &view.clone(), &mut String::new(), &mut ops);
        assert!(ops.is_empty());
    }
}
