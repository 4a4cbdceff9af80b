import type { WorkflowEdge, WorkflowGraph, WorkflowNode, WorkflowNodeType } from '../api/demo';

/** Node types of the workflow editor (the API's set). */
export const NODE_TYPES: readonly WorkflowNodeType[] = ['start', 'rect', 'user', 'push', 'download', 'end'];
const isNodeType = (type: string): type is WorkflowNodeType => NODE_TYPES.some((t) => t === type);

/** A graph as the editor saves and draws it (the server's answer adds its version). */
export type Graph = Pick<WorkflowGraph, 'nodes' | 'edges'>;

type LfText = string | { value?: string } | undefined;
const textOf = (t: LfText): string => (typeof t === 'string' ? t : (t?.value ?? ''));

/** LogicFlow's graph data (text as {x, y, value}) → the API's graph (text as a string). */
export function toApiGraph(data: { nodes?: unknown[]; edges?: unknown[] }): Graph {
  const nodes = (data.nodes ?? []).map((raw) => {
    const n = raw as { id: string; type: WorkflowNodeType; x: number; y: number; text?: LfText };
    return { id: n.id, type: n.type, x: Math.round(n.x), y: Math.round(n.y), text: textOf(n.text) } satisfies WorkflowNode;
  });
  const edges = (data.edges ?? []).map((raw) => {
    const e = raw as { id: string; sourceNodeId: string; targetNodeId: string; pointsList?: { x: number; y: number }[]; text?: LfText };
    const edge: WorkflowEdge = { id: e.id, type: 'polyline', sourceNodeId: e.sourceNodeId, targetNodeId: e.targetNodeId };
    if (e.pointsList?.length) edge.pointsList = e.pointsList.map((p) => ({ x: Math.round(p.x), y: Math.round(p.y) }));
    const text = textOf(e.text);
    if (text) edge.text = text;
    return edge;
  });
  return { nodes, edges };
}

export type GraphProblem =
  | { kind: 'unknownType'; id: string; type: string }
  | { kind: 'duplicateId'; id: string }
  | { kind: 'danglingEdge'; id: string; nodeId: string }
  | { kind: 'noStart' }
  | { kind: 'noEnd' };

/** Client-side check before saving (the server checks too): known types, unique ids, edges between existing nodes, a start and an end. */
export function validateGraph(g: Graph): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const ids = new Set<string>();
  for (const n of g.nodes) {
    if (!isNodeType(n.type)) problems.push({ kind: 'unknownType', id: n.id, type: String(n.type) });
    if (ids.has(n.id)) problems.push({ kind: 'duplicateId', id: n.id });
    ids.add(n.id);
  }
  for (const e of g.edges) {
    if (ids.has(e.id)) problems.push({ kind: 'duplicateId', id: e.id });
    ids.add(e.id);
    for (const nodeId of [e.sourceNodeId, e.targetNodeId]) if (!g.nodes.some((n) => n.id === nodeId)) problems.push({ kind: 'danglingEdge', id: e.id, nodeId });
  }
  if (!g.nodes.some((n) => n.type === 'start')) problems.push({ kind: 'noStart' });
  if (!g.nodes.some((n) => n.type === 'end')) problems.push({ kind: 'noEnd' });
  return problems;
}

/**
 * The API's graph → LogicFlow's render data (unknown node types dropped with
 * their edges; an edge's optional fields left out rather than null).
 */
export function toRenderData(g: Graph) {
  const nodes = g.nodes.filter((n) => isNodeType(n.type));
  const ids = new Set(nodes.map((n) => n.id));
  const edges = g.edges
    .filter((e) => ids.has(e.sourceNodeId) && ids.has(e.targetNodeId))
    .map(({ text, startPoint, endPoint, ...e }) => ({
      ...e,
      type: 'polyline',
      ...(text != null ? { text } : {}),
      ...(startPoint ? { startPoint } : {}),
      ...(endPoint ? { endPoint } : {}),
    }));
  return { nodes, edges };
}
