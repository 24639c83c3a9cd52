import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type Koa from "koa";
import type { ApiState } from "../../api/context.js";

// Reading an OpenAPI 3.1 document the way a client generator would: no code of the service's own, only
// the served JSON, checked with an independent JSON Schema validator (Ajv, draft 2020-12).

export interface Media {
  schema: object;
  examples?: Record<string, { value: unknown }>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, Media>;
}

interface OperationObject {
  responses: Record<string, ResponseObject | { $ref: string }>;
  requestBody?: { content: Record<string, Media> };
  parameters?: { name: string; in: string }[];
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, object>; responses: Record<string, ResponseObject> };
}

export interface DocumentedOperation {
  /** "POST /verify" (path as documented, relative to the server URL) */
  name: string;
  method: string;
  path: string;
  operation: OperationObject;
}

const METHODS = ["get", "put", "post", "patch", "delete"] as const;

export function operationsOf(document: OpenApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ name: `${method.toUpperCase()} ${path}`, method, path, operation }] : [];
    }),
  );
}

/** A response of an operation, with a `$ref` to components/responses followed. */
export function responseOf(
  document: OpenApiDocument,
  operation: OperationObject,
  status: number,
): ResponseObject {
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`status ${status} is not documented`);
  if (!("$ref" in response)) return response;
  const name = response.$ref.replace("#/components/responses/", "");
  const shared = document.components.responses[name];
  if (!shared) throw new Error(`unresolved ${response.$ref}`);
  return shared;
}

/** Validates values against schemas of the document; `$ref`s resolve against its components. */
export function schemaValidator(document: OpenApiDocument) {
  // strict: false, because OpenAPI adds keywords of its own (example, discriminator...) to JSON Schema.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return (schema: object, value: unknown): string[] => {
    const validate = ajv.compile({ ...schema, components: document.components });
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || "/"} ${e.message ?? ""} ${JSON.stringify(e.params)}`,
    );
  };
}

/** Every route of the app's routers, as "METHOD /path" with `{id}` path parameters (HEAD left out). */
export function routesOf(app: Koa<ApiState>): string[] {
  const routes = new Set<string>();
  for (const middleware of app.middleware) {
    const router = (middleware as { router?: { stack: { path: string; methods: string[] }[] } }).router;
    for (const layer of router?.stack ?? []) {
      const path = layer.path.replace(/:(\w+)/g, "{$1}");
      for (const method of layer.methods) if (method !== "HEAD") routes.add(`${method} ${path}`);
    }
  }
  return [...routes].sort();
}
