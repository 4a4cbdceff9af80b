import type { components, paths } from './schema';

/**
 * The API's types, taken from the generated schema.d.ts (docs/openapi.json):
 * the page modules name these instead of writing the server's shapes by hand,
 * so the compiler shows where the SPA and the document part.
 */
export type ApiPath = keyof paths;
type Method = 'get' | 'post';
type Operation<P extends ApiPath, M extends Method> = NonNullable<paths[P][M]>;

/** A route's `data` on success (inside the `{code, msg, data}` envelope). */
export type Answer<P extends ApiPath, M extends Method> =
  Operation<P, M> extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;

/** A route's query parameters. */
export type Query<P extends ApiPath, M extends Method = 'get'> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** A route's JSON body. */
export type Body<P extends ApiPath, M extends Method = 'post'> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** A named schema of the document's components. */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];
