import useSWR from 'swr';
import { get, post } from '@/api/request';
import type { Answer, Body, Query } from '@/api/types';

/** Mock data of the template demo pages (served by the gateway). */
type TablePage = Answer<'/partnerapi/table/getList', 'get'>;
export type TableItem = TablePage['list'][number];

export type PageQuery = Query<'/partnerapi/table/getList'> & { pageNo: number; pageSize: number };

type GoodsPage = Answer<'/partnerapi/goods/getList', 'get'>;
export type GoodsItem = GoodsPage['list'][number];

/** The node types the editor draws (the document types a node's `type` as any string). */
export type WorkflowNodeType = 'start' | 'rect' | 'user' | 'push' | 'download' | 'end';
export type WorkflowGraph = Answer<'/partnerapi/workflow/getList', 'get'>;
export type WorkflowNode = WorkflowGraph['nodes'][number];
export type WorkflowEdge = WorkflowGraph['edges'][number];

/** A paged answer, its list and total defaulted. */
const page = <T>(data: { list?: T[]; total?: number } | undefined): { list: T[]; total: number } => ({ list: data?.list ?? [], total: data?.total ?? 0 });

export async function getTableList(q: PageQuery): Promise<TablePage> {
  const { data } = await get<TablePage>('/table/getList', { pageNo: q.pageNo, pageSize: q.pageSize, title: q.title });
  return page(data);
}

/**
 * A page of the table items (no title: all). The previous page stays shown
 * while the next loads; the title is part of the key as '' when absent.
 */
export function useTableList(q: PageQuery) {
  return useSWR(['table/getList', q.pageNo, q.pageSize, q.title ?? ''], () => getTableList(q), { keepPreviousData: true });
}

/** All 50 table items (the detail page looks its row up among them). */
export function useAllTableItems() {
  return useSWR(['table/getList', 'all'], () => getTableList({ pageNo: 1, pageSize: 50 }));
}

export type TableEdit = Body<'/partnerapi/table/doEdit'>;

/** Simulated save; resolves with the server's message. */
export async function doEditTable(item: TableEdit): Promise<string> {
  return (await post<unknown>('/table/doEdit', item)).msg;
}

export async function doDeleteTable(ids: string[]): Promise<string> {
  return (await post<unknown>('/table/doDelete', { ids })).msg;
}

export async function getGoodsList(q: PageQuery): Promise<GoodsPage> {
  const { data } = await get<GoodsPage>('/goods/getList', { pageNo: q.pageNo, pageSize: q.pageSize, title: q.title });
  return page(data);
}

/** A page of goods (title filter); the previous page stays shown while the next loads. */
export function useGoodsList(q: PageQuery) {
  return useSWR(['goods/getList', q.pageNo, q.pageSize, q.title ?? ''], () => getGoodsList(q), { keepPreviousData: true });
}

export async function getDescriptionList(): Promise<{ title: string; description: string }[]> {
  const { data } = await get<Answer<'/partnerapi/description/getList', 'get'>>('/description/getList');
  return data?.list ?? [];
}

/** The description list of the table detail. */
export function useDescriptions() {
  return useSWR('description/getList', getDescriptionList);
}

type RemixIconPage = Answer<'/partnerapi/remixIcon/getList', 'get'>;
export async function getRemixIconList(q: PageQuery): Promise<RemixIconPage> {
  const { data } = await get<RemixIconPage>('/remixIcon/getList', { pageNo: q.pageNo, pageSize: q.pageSize, title: q.title });
  return page(data);
}

/** A page of remix icon names (title filter; `enabled` false: not asked, e.g. while a picker is closed). */
export function useRemixIcons(q: PageQuery, enabled = true) {
  return useSWR(enabled ? ['remixIcon/getList', q.pageNo, q.pageSize, q.title ?? ''] : null, () => getRemixIconList(q), { keepPreviousData: true });
}

export async function getWorkflow(): Promise<WorkflowGraph> {
  const { data } = await get<WorkflowGraph>('/workflow/getList');
  return { nodes: data?.nodes ?? [], edges: data?.edges ?? [], version: data?.version ?? 0 };
}

export async function saveWorkflow(graph: Body<'/partnerapi/workflow/doEdit'>): Promise<string> {
  return (await post<unknown>('/workflow/doEdit', graph)).msg;
}

/** A bundled demo image path ('demo/img-07.svg') as a URL relative to the SPA. */
export const demoImageUrl = (path: string): string => (/^(https?:)?\/\//.test(path) || path.startsWith('data:') ? path : `./${path.replace(/^\.?\//, '')}`);
