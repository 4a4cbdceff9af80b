//! The workflow diagram of the demo editor: nodes of six types (start, rect,
//! user, push, download, end) joined by polyline edges. Stored as one
//! versioned record; a save is checked whole before anything is written.

use std::collections::HashSet;

use envelope::{msg, ApiError, Arg};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::{Condition, Key};

use super::StoreResultExt;
use crate::ctx::AppCtx;

pub const NODE_TYPES: [&str; 6] = ["start", "rect", "user", "push", "download", "end"];
const MAX_NODES: usize = 200;
const MAX_EDGES: usize = 400;
const MAX_TEXT: usize = 100;

fn key() -> Key {
    Key::new("DEMO", "WORKFLOW")
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// Text is a string or, as the diagram library writes it, `{value, x, y}`;
/// both are kept as the string.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum TextField {
    Plain(String),
    Placed { value: String },
}

fn text_of(t: Option<TextField>) -> Option<String> {
    t.map(|t| match t {
        TextField::Plain(s) | TextField::Placed { value: s } => s,
    })
}

/// A node as the editor sends it.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeIn {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    x: f64,
    y: f64,
    text: Option<TextField>,
}

/// An edge as the editor sends it (`type` defaults to `polyline`).
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EdgeIn {
    id: String,
    #[serde(rename = "type", default = "polyline")]
    kind: String,
    source_node_id: String,
    target_node_id: String,
    start_point: Option<Point>,
    end_point: Option<Point>,
    points_list: Option<Vec<Point>>,
    text: Option<TextField>,
}

fn polyline() -> String {
    "polyline".into()
}

/// A diagram as the editor sends it, checked by [`validate`].
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
pub struct GraphIn {
    #[schemars(length(max = MAX_NODES))]
    pub nodes: Vec<NodeIn>,
    #[schemars(length(max = MAX_EDGES))]
    pub edges: Vec<EdgeIn>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct Node {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub x: f64,
    pub y: f64,
    pub text: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Edge {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub source_node_id: String,
    pub target_node_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_point: Option<Point>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_point: Option<Point>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub points_list: Vec<Point>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}


fn finite(p: &Point, what: &str) -> Result<(), ApiError> {
    if p.x.is_finite() && p.y.is_finite() {
        Ok(())
    } else {
        Err(ApiError::bad_request(msg::demo::workflow::bad_coordinate(&what)))
    }
}

fn short_text(text: Option<String>, what: &str) -> Result<Option<String>, ApiError> {
    match text {
        Some(t) if t.chars().count() > MAX_TEXT => {
            Err(ApiError::bad_request(msg::demo::workflow::text_too_long(MAX_TEXT, &what)))
        }
        other => Ok(other.map(|t| t.trim().to_string())),
    }
}

/// Checks a graph sent by the editor and returns it in stored form.
pub fn validate(input: GraphIn) -> Result<Graph, ApiError> {
    if input.nodes.len() > MAX_NODES || input.edges.len() > MAX_EDGES {
        return Err(ApiError::bad_request(msg::demo::workflow::too_big(MAX_EDGES, MAX_NODES)));
    }
    let mut ids = HashSet::new();
    let mut nodes = Vec::with_capacity(input.nodes.len());
    for n in input.nodes {
        let what = format!("node '{}'", n.id);
        if n.id.trim().is_empty() || !ids.insert(n.id.clone()) {
            return Err(ApiError::bad_request(msg::demo::workflow::node_id(&n.id)));
        }
        if !NODE_TYPES.contains(&n.kind.as_str()) {
            return Err(ApiError::bad_request(msg::demo::workflow::node_type(Arg::names(&NODE_TYPES), &n.id, &n.kind)));
        }
        finite(&Point { x: n.x, y: n.y }, &what)?;
        let text = short_text(text_of(n.text), &what)?.unwrap_or_default();
        nodes.push(Node { id: n.id, kind: n.kind, x: n.x, y: n.y, text });
    }
    let mut edge_ids = HashSet::new();
    let mut edges = Vec::with_capacity(input.edges.len());
    for e in input.edges {
        let what = format!("edge '{}'", e.id);
        if e.id.trim().is_empty() || !edge_ids.insert(e.id.clone()) {
            return Err(ApiError::bad_request(msg::demo::workflow::edge_id(&e.id)));
        }
        if e.kind != "polyline" {
            return Err(ApiError::bad_request(msg::demo::workflow::edge_kind(&e.id, &e.kind)));
        }
        for end in [&e.source_node_id, &e.target_node_id] {
            if !ids.contains(end) {
                return Err(ApiError::bad_request(msg::demo::workflow::missing_node(end, &e.id)));
            }
        }
        let points = e.points_list.unwrap_or_default();
        for p in points.iter().chain(e.start_point.iter()).chain(e.end_point.iter()) {
            finite(p, &what)?;
        }
        let text = short_text(text_of(e.text), &what)?.filter(|t| !t.is_empty());
        if let Some(t) = &text {
            if t != "Y" && t != "N" {
                return Err(ApiError::bad_request(msg::demo::workflow::edge_label(&e.id, t)));
            }
        }
        edges.push(Edge {
            id: e.id,
            kind: e.kind,
            source_node_id: e.source_node_id,
            target_node_id: e.target_node_id,
            start_point: e.start_point,
            end_point: e.end_point,
            points_list: points,
            text,
        });
    }
    Ok(Graph { nodes, edges })
}

/// The graph shown before anyone saved one: an approval flow.
pub fn default_graph() -> Graph {
    let node = |id: &str, kind: &str, x: f64, y: f64, text: &str| Node { id: id.into(), kind: kind.into(), x, y, text: text.into() };
    let edge = |id: &str, from: &str, to: &str, text: Option<&str>| Edge {
        id: id.into(),
        kind: "polyline".into(),
        source_node_id: from.into(),
        target_node_id: to.into(),
        start_point: None,
        end_point: None,
        points_list: Vec::new(),
        text: text.map(Into::into),
    };
    Graph {
        nodes: crate::domain::demo::WORKFLOW_NODES.iter().map(|&(id, kind, x, y, text)| node(id, kind, x, y, text)).collect(),
        edges: vec![
            edge("e1", "start", "apply", None),
            edge("e2", "apply", "review", None),
            edge("e3", "review", "notify", Some("Y")),
            edge("e4", "review", "export", Some("N")),
            edge("e5", "notify", "end", None),
            edge("e6", "export", "end", None),
        ],
    }
}

/// The stored graph and its version (0 = never saved).
pub async fn load(ctx: &AppCtx) -> Result<(Graph, i64), ApiError> {
    let Some(mut item) = ctx.store.get(&key()).await.api()? else {
        return Ok((default_graph(), 0));
    };
    let version = item.get(store::VERSION).and_then(Value::as_i64).unwrap_or(0);
    let graph = item.remove("graph").and_then(|g| serde_json::from_value(g).ok()).unwrap_or_else(default_graph);
    Ok((graph, version))
}

/// Saves a graph over `expected_version` (0 for the first save); a save
/// based on an older version is refused as a conflict.
pub async fn save(ctx: &AppCtx, graph: &Graph, expected_version: i64) -> Result<i64, ApiError> {
    // The claimed version is compared with the stored one; saturating, a
    // claim no save can have reached (i64::MAX) fails that check (409).
    let next = expected_version.saturating_add(1);
    let mut item = key().to_item();
    item.insert("graph".into(), serde_json::to_value(graph).unwrap_or(Value::Null));
    item.insert(store::VERSION.into(), next.into());
    item.insert("updatedAt".into(), ctx.now().into());
    match ctx.store.put(item, Some(Condition::loaded_at(expected_version))).await {
        Ok(()) => Ok(next),
        Err(store::StoreError::ConditionFailed) => Err(ApiError::conflict(msg::demo::workflow::changed_meanwhile())),
        Err(e) => Err(e).api(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn validate(body: Value) -> Result<Graph, ApiError> {
        let input: GraphIn = serde_json::from_value(body).map_err(|e| ApiError::bad_request(msg::demo::workflow::unreadable(e)))?;
        super::validate(input)
    }

    #[test]
    fn the_default_graph_is_valid() {
        let g = default_graph();
        assert_eq!(validate(serde_json::to_value(&g).unwrap()).unwrap(), g);
    }

    #[test]
    fn bad_graphs_say_what_is_wrong() {
        let cases = [
            (json!({"nodes": []}), "missing field `edges`"),
            (json!({"nodes": [{"id": "a", "type": "diamond", "x": 1, "y": 1}], "edges": []}), "unknown type 'diamond'"),
            (json!({"nodes": [{"id": "a", "type": "start", "x": 1, "y": 1}, {"id": "a", "type": "end", "x": 1, "y": 1}], "edges": []}), "repeated"),
            (json!({"nodes": [{"id": "a", "type": "start", "x": 1, "y": 1}], "edges": [{"id": "e", "sourceNodeId": "a", "targetNodeId": "b"}]}), "missing node 'b'"),
            (json!({"nodes": [{"id": "a", "type": "start", "x": 1, "y": 1}], "edges": [{"id": "e", "type": "bezier", "sourceNodeId": "a", "targetNodeId": "a"}]}), "polyline"),
            (json!({"nodes": [{"id": "a", "type": "start", "x": 1, "y": 1}], "edges": [{"id": "e", "sourceNodeId": "a", "targetNodeId": "a", "text": "maybe"}]}), "Y or N"),
        ];
        for (body, expected) in cases {
            let err = validate(body.clone()).unwrap_err();
            assert!(err.msg.en.contains(expected), "{body}: {}", err.msg.en);
        }
    }

    #[test]
    fn placed_text_is_kept_as_its_value() {
        let g = validate(json!({"nodes": [{"id": "a", "type": "user", "x": 1, "y": 2, "text": {"x": 1, "y": 2, "value": "审核"}}], "edges": []})).unwrap();
        assert_eq!(g.nodes[0].text, "审核");
    }
}
