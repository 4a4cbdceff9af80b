import { get, post } from './request';

/** Mock data of the template demo pages (spec point 7; served by the gateway). */
export interface TableItem {
  uuid: string;
  id: string;
  title: string;
  description: string;
  status: 'published' | 'draft' | 'deleted';
  author: string;
  datetime: string;
  pageViews: number;
  /** Relative path of a bundled demo image ('demo/img-07.svg'). */
  img: string;
  switch: boolean;
  percent: number;
  rate: number;
  percentage: number;
}

export interface Page<T> {
  list: T[];
  total: number;
}

export interface PageQuery {
  pageNo: number;
  pageSize: number;
  title?: string;
}

export interface GoodsItem {
  uuid: string;
  image: string;
  title: string;
  price: number;
  label: string[];
  company: string;
  url: string;
  description: string;
}

export type WorkflowNodeType = 'start' | 'rect' | 'user' | 'push' | 'download' | 'end';
export interface WorkflowNode {
  id: string;
  type: WorkflowNodeType;
  x: number;
  y: number;
  text: string;
}
export interface WorkflowEdge {
  id: string;
  type: 'polyline';
  sourceNodeId: string;
  targetNodeId: string;
  pointsList?: { x: number; y: number }[];
  text?: string;
}
export interface WorkflowGraph {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
}

export interface AreaNode {
  name: string;
  code: string;
  children?: AreaNode[];
}

const page = <T>(data: Partial<Page<T>> | undefined): Page<T> => ({ list: data?.list ?? [], total: data?.total ?? 0 });

export async function getTableList(q: PageQuery): Promise<Page<TableItem>> {
  const { data } = await get<Page<TableItem>>('/table/getList', { pageNo: q.pageNo, pageSize: q.pageSize, title: q.title });
  return page(data);
}

export interface TableEdit {
  id?: string;
  title: string;
  description?: string;
  status?: TableItem['status'];
  author?: string;
}

/** Simulated save; resolves with the server's message. */
export async function doEditTable(item: TableEdit): Promise<string> {
  return (await post<unknown>('/table/doEdit', item)).msg;
}

export async function doDeleteTable(ids: string[]): Promise<string> {
  return (await post<unknown>('/table/doDelete', { ids })).msg;
}

export async function getGoodsList(q: PageQuery): Promise<Page<GoodsItem>> {
  const { data } = await get<Page<GoodsItem>>('/goods/getList', { pageNo: q.pageNo, pageSize: q.pageSize, title: q.title });
  return page(data);
}

export async function getDescriptionList(): Promise<{ title: string; description: string }[]> {
  const { data } = await get<{ list: { title: string; description: string }[] }>('/description/getList');
  return data?.list ?? [];
}

export async function getRemixIconList(q: PageQuery): Promise<Page<string>> {
  const { data } = await get<Page<string>>('/remixIcon/getList', { pageNo: q.pageNo, pageSize: q.pageSize, title: q.title });
  return page(data);
}

export async function getWorkflow(): Promise<WorkflowGraph> {
  const { data } = await get<WorkflowGraph>('/workflow/getList');
  return { nodes: data?.nodes ?? [], edges: data?.edges ?? [] };
}

export async function saveWorkflow(graph: WorkflowGraph): Promise<string> {
  return (await post<unknown>('/workflow/doEdit', graph)).msg;
}

export async function getAreaList(): Promise<AreaNode[]> {
  const { data } = await get<AreaNode[] | { list: AreaNode[] }>('/area/getList');
  if (Array.isArray(data)) return data;
  return data?.list ?? [];
}

/** A bundled demo image path ('demo/img-07.svg') as a URL relative to the SPA. */
export const demoImageUrl = (path: string): string => (/^(https?:)?\/\//.test(path) || path.startsWith('data:') ? path : `./${path.replace(/^\.?\//, '')}`);
