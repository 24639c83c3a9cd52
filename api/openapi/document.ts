import { z } from "zod";
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import {
  AuthenticationError,
  AuthorizationError,
  IdempotencyKeyInProgressError,
  INVALID_DATA_MESSAGE,
  QuotaExceededError,
  TooManyAttemptsError,
  UNAVAILABLE_MESSAGE,
  VERIFICATION_NOT_FOUND_MESSAGE,
} from "../../src/errors.js";
import { RENDERED_MESSAGES } from "../errors.js";
import {
  IDEMPOTENCY_DEFAULTS,
  IDEMPOTENCY_HEADER,
  idempotencyKeySchema,
  KEY_REUSED,
  REPLAYED_HEADER,
} from "../middleware/idempotency.js";
import { INVALID_JSON_MESSAGE } from "../middleware/json-body.js";
import {
  banksBodySchema,
  bulkDeletedSchema,
  messageSchema,
  parsedReceiptSchema,
  parsedUrlSchema,
  savedAccountSchema,
  validationErrorSchema,
  verificationRecordSchema,
  verificationResultSchema,
} from "../responses.js";
import {
  bulkDeleteSchema,
  createAccountSchema,
  exportQuerySchema,
  historyQuerySchema,
  updateAccountSchema,
} from "../routes/schemas.js";
import { parseReceiptBodySchema, parseUrlBodySchema, verifyBodySchema } from "../routes/verify-schema.js";
import {
  type OpenApiExample,
  type SandboxExamples,
  shareLinkExamples,
  verifyRequestExamples,
  verifyResultExamples,
} from "./examples.js";
import {
  EXPORT_BODY_DESCRIPTION,
  EXPORT_DESCRIPTION,
  EXTENSION_MARK,
  exportBodySchema,
  exportExamples,
  exportHeaders,
} from "./export.js";

// The contract (docs/api.md), with the choices Birrcheck made where it is silent, as OpenAPI 3.1. Bodies
// and parameters are the zod schemas the routes parse with; responses are the schemas the presenters return.

const json = (schema: z.ZodType, examples?: Record<string, OpenApiExample>) => ({
  "application/json": { schema, ...(examples ? { examples } : {}) },
});

const message = (text: string): Record<string, OpenApiExample> => ({
  message: { summary: text, value: { message: text } },
});

/** Failures shared by many operations, as reusable responses. */
const ERRORS = {
  400: {
    id: "BadRequest",
    description:
      "Invalid input the contract answers with 400: an unsupported bank, a malformed or unsupported receipt URL, " +
      "a body that is not a JSON object.",
    content: json(messageSchema, message(INVALID_JSON_MESSAGE)),
  },
  401: {
    id: "Unauthenticated",
    description: "A missing, malformed, unknown or revoked API key.",
    content: json(messageSchema, message(new AuthenticationError().message)),
  },
  402: {
    id: "QuotaExceeded",
    description: "The business's monthly verification quota is used up.",
    content: json(messageSchema, message(new QuotaExceededError().message)),
  },
  403: {
    id: "Forbidden",
    description: "The key's role may not do this (a cashier key on bulk deletion or the CSV export).",
    content: json(messageSchema, message(new AuthorizationError().message)),
  },
  404: {
    id: "NotFound",
    description: "No such record in the key's branch (unknown id, another branch's id, or not a number).",
    content: json(messageSchema, message(VERIFICATION_NOT_FOUND_MESSAGE)),
  },
  413: {
    id: "PayloadTooLarge",
    description: "A JSON body over 256 kB, or a receipt file over 10 MB.",
    content: json(messageSchema, message(RENDERED_MESSAGES.tooLarge)),
  },
  422: {
    id: "ValidationFailed",
    description: "Fields failing their rules, one Laravel-style message per field.",
    content: json(validationErrorSchema),
  },
  429: {
    id: "TooManyAttempts",
    description: "More than API_RATE_LIMIT requests a minute with one key.",
    headers: z.object({
      "Retry-After": z.string().meta({ description: "Seconds until the next request is accepted." }),
      "X-RateLimit-Limit": z.string().meta({ description: "Requests allowed a minute." }),
      "X-RateLimit-Remaining": z.string().meta({ description: "Requests left in this minute." }),
    }),
    content: json(messageSchema, message(new TooManyAttemptsError(60).message)),
  },
  500: {
    id: "ServerError",
    description: "An unexpected failure; details only in the service's log, under the request id.",
    content: json(messageSchema, message(RENDERED_MESSAGES.serverError)),
  },
  502: {
    id: "BankAnswerUnreadable",
    description: "The bank answered something that could not be read; nothing was recorded or counted.",
    content: json(messageSchema, message(RENDERED_MESSAGES.bankAnswerUnreadable("boa"))),
  },
  503: {
    id: "Unavailable",
    description:
      "The database is unreachable, or (POST /verify) the bank is not responding or its circuit breaker is " +
      "open; nothing was recorded or counted.",
    content: json(messageSchema, message(UNAVAILABLE_MESSAGE)),
  },
} satisfies Record<number, ZodOpenApiResponseObject>;

type ErrorStatus = keyof typeof ERRORS;

/** Every call with a key: the key may be refused or rate-limited, and the database may be down. */
const AUTHENTICATED: ErrorStatus[] = [401, 429, 500, 503];
/** A JSON (or multipart) body may be malformed, too large, or fail its rules. */
const WITH_BODY: ErrorStatus[] = [400, 413, 422];

interface Operation extends Omit<ZodOpenApiOperationObject, "responses"> {
  success: {
    status: 200 | 201;
    description: string;
    schema: z.ZodType;
    examples?: Record<string, OpenApiExample>;
    headers?: ZodOpenApiResponseObject["headers"];
    /** application/json unless given (the CSV export). */
    mediaType?: string;
  };
  errors?: ErrorStatus[];
  /** Responses of this operation alone (POST /verify's 404 result). */
  more?: Record<number, ZodOpenApiResponseObject>;
}

function operation({ success, errors = [], more = {}, ...rest }: Operation): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {
    [success.status]: {
      description: success.description,
      ...(success.headers ? { headers: success.headers } : {}),
      content: {
        [success.mediaType ?? "application/json"]: {
          schema: success.schema,
          ...(success.examples ? { examples: success.examples } : {}),
        },
      },
    },
    ...more,
  };
  for (const status of errors) responses[status] = ERRORS[status];
  return { ...rest, responses };
}

const idParam = z.object({
  id: z.string().meta({ override: { type: "integer", minimum: 1 }, description: "The record's id." }),
});

/** multipart/form-data fields of POST /verify and /verify/parse-receipt. */
const receiptFile = z.file().meta({
  description:
    "PDF, JPG, JPEG, PNG or WEBP, at most 10 MB. An image needs receipt_text unless the server reads it (SERVER_OCR).",
});

const VERIFY_DESCRIPTION = `Verifies a payment. Exactly one input per call: bank + transaction_number, receipt_url, receipt_file
(multipart) or receipt_text. Consumes one unit of the monthly quota unless the result is a duplicate or the key is a
sandbox key (chk_test_…), which checks against the built-in bank simulator: every example below succeeds with one.

Retries: send an ${IDEMPOTENCY_HEADER} header (e.g. a UUID) and repeat the request with the same key and the same body
when its answer was lost: within 24 hours it gets the first answer again (same status and body, with
${REPLAYED_HEADER}: true) and nothing is verified or counted twice. Answers that recorded nothing (402, 5xx) are not
kept: a retry with the key runs again.`;

/** The Idempotency-Key request header of POST /verify. */
const idempotencyHeader = z.object({
  [IDEMPOTENCY_HEADER]: idempotencyKeySchema.optional().meta({
    description:
      "1–255 visible ASCII characters, unique per request you mean (a UUID). Scoped to the API key and kept 24 " +
      "hours: the same key with the same body gets the first answer again; with another body it is a 422.",
    example: "5f0c7a4e-2b1d-4c8e-9a53-0d6f3c2b7e11",
  }),
});

/** Answers of POST /verify that are kept for an Idempotency-Key and may come back as replays. */
const replayHeaders = z.object({
  [REPLAYED_HEADER]: z
    .enum(["true", "false"])
    .optional()
    .meta({
      description: `true: the answer kept for this ${IDEMPOTENCY_HEADER}, replayed; false: this request ran.`,
    }),
});

/** The document; `sandbox` (every bank's sandbox receipt, from the composition root) gives its examples. */
export function createOpenApiDocument(sandbox: SandboxExamples): oas31.OpenAPIObject {
  const results = verifyResultExamples(sandbox);
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Birrcheck API",
      version: "1.0",
      description:
        "Verifies payments made through Ethiopian banks and mobile-money providers: a bank and transaction number, " +
        "a receipt share link, a receipt file or receipt text in, a confirmed (or not) transaction out, and whether " +
        "that receipt was already used in the branch.",
    },
    servers: [{ url: "/api/v1" }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "Verify", description: "Verification and its quota-free pre-checks." },
      { name: "History", description: "The branch's verifications." },
      { name: "Accounts", description: "The branch's saved receiving accounts." },
      { name: "Catalogue", description: "Supported banks and this document." },
    ],
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API key: `Authorization: Bearer chk_…` (sandbox keys: `chk_test_…`).",
        },
      },
    },
    paths: {
      "/verify": {
        post: operation({
          operationId: "verify",
          tags: ["Verify"],
          summary: "Verify a payment",
          description: VERIFY_DESCRIPTION,
          requestParams: { header: idempotencyHeader },
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: verifyBodySchema, examples: verifyRequestExamples(sandbox) },
              "multipart/form-data": {
                schema: verifyBodySchema
                  .pick({ bank: true, account_number: true, bank_account_id: true, receipt_text: true })
                  .extend({ receipt_file: receiptFile }),
              },
            },
          },
          success: {
            status: 200,
            description:
              "The bank answered. success is true only for a confirmed transaction; a duplicate, a payment to " +
              "another account, an incomplete transfer or a receipt that disagrees with the bank are 200s with " +
              "success false and a message.",
            schema: verificationResultSchema,
            examples: { confirmed: results.confirmed, duplicate: results.duplicate },
            headers: replayHeaders,
          },
          more: {
            404: {
              description: "The bank does not know the transaction (success, exists and duplicate false).",
              headers: replayHeaders,
              content: json(verificationResultSchema, { notFound: results.notFound }),
            },
            422: {
              description: `${ERRORS[422].description} Also a malformed ${IDEMPOTENCY_HEADER}, or one already used with another body.`,
              headers: replayHeaders,
              content: json(validationErrorSchema, {
                keyReused: {
                  summary: KEY_REUSED,
                  value: {
                    message: INVALID_DATA_MESSAGE,
                    errors: { idempotency_key: [KEY_REUSED] },
                  },
                },
              }),
            },
            503: {
              description:
                `${ERRORS[503].description} Also: the first request with this ${IDEMPOTENCY_HEADER} is still running ` +
                `after this one waited for it (up to ${IDEMPOTENCY_DEFAULTS.waitMs / 1000} s); retry later with the same key to get its answer.`,
              content: json(messageSchema, {
                ...message(UNAVAILABLE_MESSAGE),
                keyInProgress: {
                  summary: "Idempotency key in progress",
                  value: { message: new IdempotencyKeyInProgressError().message },
                },
              }),
            },
          },
          errors: [401, 429, 500, ...WITH_BODY.filter((status) => status !== 422), 402, 502],
        }),
      },
      "/verify/parse-url": {
        post: operation({
          operationId: "parseUrl",
          tags: ["Verify"],
          summary: "Read a share link (no quota)",
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: parseUrlBodySchema, examples: shareLinkExamples(sandbox) },
            },
          },
          success: { status: 200, description: "What the link says.", schema: parsedUrlSchema },
          errors: [...AUTHENTICATED, ...WITH_BODY],
        }),
      },
      "/verify/parse-receipt": {
        post: operation({
          operationId: "parseReceipt",
          tags: ["Verify"],
          summary: "Read a receipt file or text (no quota)",
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": { schema: parseReceiptBodySchema.extend({ receipt_file: receiptFile }) },
              "application/json": { schema: parseReceiptBodySchema },
            },
          },
          success: { status: 200, description: "What the receipt claims.", schema: parsedReceiptSchema },
          errors: [...AUTHENTICATED, ...WITH_BODY],
        }),
      },
      "/verifications": {
        get: operation({
          operationId: "listVerifications",
          tags: ["History"],
          summary: "List the branch's verifications, newest first",
          requestParams: { query: historyQuerySchema },
          success: {
            status: 200,
            description: "The records.",
            schema: z.object({ verifications: z.array(verificationRecordSchema) }),
          },
          errors: [...AUTHENTICATED, 422],
        }),
      },
      "/verifications/export": {
        get: {
          ...operation({
            operationId: "exportVerifications",
            tags: ["History"],
            summary: "Export the branch's verifications as CSV (manager or admin; extension)",
            description: EXPORT_DESCRIPTION,
            requestParams: { query: exportQuerySchema },
            success: {
              status: 200,
              description: EXPORT_BODY_DESCRIPTION,
              mediaType: "text/csv",
              schema: exportBodySchema,
              examples: exportExamples,
              headers: exportHeaders,
            },
            errors: [...AUTHENTICATED, 403, 422],
          }),
          ...EXTENSION_MARK,
        },
      },
      "/verifications/bulk": {
        delete: operation({
          operationId: "deleteVerifications",
          tags: ["History"],
          summary: "Delete up to 100 verifications (manager or admin)",
          description: "Ids of other branches and unknown ids are skipped and not counted.",
          requestBody: { required: true, content: { "application/json": { schema: bulkDeleteSchema } } },
          success: { status: 200, description: "How many were deleted.", schema: bulkDeletedSchema },
          errors: [...AUTHENTICATED, ...WITH_BODY, 403],
        }),
      },
      "/verifications/{id}": {
        get: operation({
          operationId: "getVerification",
          tags: ["History"],
          summary: "Read one verification",
          requestParams: { path: idParam },
          success: {
            status: 200,
            description: "The record.",
            schema: z.object({ verification: verificationRecordSchema }),
          },
          errors: [...AUTHENTICATED, 404],
        }),
        delete: operation({
          operationId: "deleteVerification",
          tags: ["History"],
          summary: "Delete one verification",
          description:
            "It leaves history, but a confirmed receipt stays used: it can never be counted twice.",
          requestParams: { path: idParam },
          success: { status: 200, description: "Deleted.", schema: messageSchema },
          errors: [...AUTHENTICATED, 404],
        }),
      },
      "/accounts": {
        get: operation({
          operationId: "listAccounts",
          tags: ["Accounts"],
          summary: "List saved receiving accounts",
          success: {
            status: 200,
            description: "By bank, primary first.",
            schema: z.object({ accounts: z.array(savedAccountSchema) }),
          },
          errors: AUTHENTICATED,
        }),
        post: operation({
          operationId: "createAccount",
          tags: ["Accounts"],
          summary: "Save a receiving account",
          requestBody: { required: true, content: { "application/json": { schema: createAccountSchema } } },
          success: { status: 201, description: "Saved.", schema: z.object({ account: savedAccountSchema }) },
          errors: [...AUTHENTICATED, ...WITH_BODY],
        }),
      },
      "/accounts/{id}": {
        patch: operation({
          operationId: "updateAccount",
          tags: ["Accounts"],
          summary: "Rename an account or make it primary",
          requestParams: { path: idParam },
          requestBody: { required: true, content: { "application/json": { schema: updateAccountSchema } } },
          success: {
            status: 200,
            description: "Updated.",
            schema: z.object({ account: savedAccountSchema }),
          },
          errors: [...AUTHENTICATED, ...WITH_BODY, 404],
        }),
        delete: operation({
          operationId: "deleteAccount",
          tags: ["Accounts"],
          summary: "Delete a saved account",
          requestParams: { path: idParam },
          success: { status: 200, description: "Deleted.", schema: messageSchema },
          errors: [...AUTHENTICATED, 404],
        }),
      },
      "/banks": {
        get: operation({
          operationId: "listBanks",
          tags: ["Catalogue"],
          summary: "Supported banks",
          security: [],
          success: { status: 200, description: "Keyed by bank code.", schema: banksBodySchema },
        }),
      },
      "/openapi.json": {
        get: operation({
          operationId: "openApiDocument",
          tags: ["Catalogue"],
          summary: "This document",
          security: [],
          success: {
            status: 200,
            description: "OpenAPI 3.1.",
            schema: z.looseObject({ openapi: z.string() }),
          },
        }),
      },
    },
  });
}
