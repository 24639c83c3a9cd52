import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  InlineKeyboardMarkup,
  Message,
  MessageEntity,
  MessageOriginUser,
  Update,
  User,
  UserFromGetMe,
} from "grammy/types";

/**
 * A loopback imitation of the Telegram Bot API for bot tests: records every call, serves queued updates to
 * long polling and stored files to downloads, and can be made to fail or to vanish. No test reaches Telegram.
 */

export interface BotApiCall {
  method: string;
  payload: Record<string, unknown>;
  at: number;
  /** What the fake answered (set once answered), e.g. the sent Message with its message_id. */
  result?: unknown;
  /**
   * How a getUpdates long poll that had to wait ended: an update arrived, its timeout passed, its client
   * went away (a bot stopping aborts its poll), or the fake was closed.
   */
  endedBy?: "update" | "timeout" | "client" | "closed";
}

export interface BotApiError {
  error_code: number;
  description: string;
  /** e.g. `{ retry_after: 3 }` with a 429, which grammY reads to wait. */
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

export interface FakeFile {
  file_id: string;
  file_unique_id: string;
  file_size: number;
}

export interface FakeTelegram {
  apiRoot: string;
  token: string;
  botUsername: string;
  /** Every API call, in order (not file downloads). */
  calls: BotApiCall[];
  callsOf(method: string): BotApiCall[];
  /** Calls whose payload.chat_id equals chatId (sendMessage, editMessageText, sendChatAction, deleteMessage...). */
  callsTo(chatId: number): BotApiCall[];
  /** Resolves with the first call (already recorded or future) matching; rejects after timeoutMs (default 10 s)
   *  with an error listing the calls seen. `after` = only calls with index >= after (use calls.length before acting). */
  waitForCall(
    method: string,
    match?: (payload: Record<string, unknown>) => boolean,
    options?: { timeoutMs?: number; after?: number },
  ): Promise<BotApiCall>;
  /** Queue an update for getUpdates (polling); assigns and returns update_id (increasing). */
  pushUpdate(update: Omit<Update, "update_id">): number;
  /** Updates queued and not yet confirmed by a getUpdates offset. */
  pendingUpdates(): Update[];
  /** Updates queued and not yet sent to any getUpdates call (polling has not fetched them). */
  undeliveredUpdates(): Update[];
  /** Store bytes to be served: file_size = bytes.length unless given (to lie about size). */
  addFile(bytes: Uint8Array, options?: { fileSize?: number; extension?: string }): FakeFile;
  /** The next `times` (default 1) calls of `method` answer `{ok:false, ...error}` with HTTP status error_code. */
  failNext(method: string, error: BotApiError, times?: number): void;
  /**
   * The next call of `method` whose payload matches is recorded and then left unanswered until `release()`:
   * a slow Bot API, or the moment to crash the bot between its work and its reply.
   */
  holdNext(
    method: string,
    match?: (payload: Record<string, unknown>) => boolean,
  ): { reached: Promise<BotApiCall>; release(): void };
  /** Stop answering entirely (connections refused); pending long polls get [] first. */
  close(): Promise<void>;
  /** Listen again on the same port, with the same state (to test recovery after an outage). */
  reopen(): Promise<void>;
}

const DEFAULT_TOKEN = "123456:TEST-TOKEN";
const BOT_USERNAME = "birrcheck_test_bot";
const BOT_NAME = "Birrcheck Test";
// The Bot API refuses getFile above this size ("file is too big"), so a bot must handle it.
const GET_FILE_LIMIT = 20 * 1024 * 1024;
const MAX_TEXT = 4096;
const MAX_BODY = 10 * 1024 * 1024;
const TRUE_METHODS = new Set([
  "deleteMessage",
  "deleteMessages",
  "sendChatAction",
  "answerCallbackQuery",
  "setMyCommands",
  "deleteMyCommands",
  "setMyDescription",
  "setMyShortDescription",
  "setChatMenuButton",
  "setWebhook",
  "deleteWebhook",
]);

class ApiFailure extends Error {
  constructor(readonly error: BotApiError) {
    super(error.description);
  }
}

const badRequest = (what: string): ApiFailure =>
  new ApiFailure({ error_code: 400, description: `Bad Request: ${what}` });

interface StoredFile {
  file: FakeFile;
  bytes: Uint8Array;
  path: string;
}

interface Waiter {
  method: string;
  match: (payload: Record<string, unknown>) => boolean;
  after: number;
  resolve: (call: BotApiCall) => void;
}

interface Hold {
  method: string;
  match: (payload: Record<string, unknown>) => boolean;
  reached: (call: BotApiCall) => void;
  released: Promise<void>;
}

export async function startFakeTelegram(options: { token?: string } = {}): Promise<FakeTelegram> {
  const token = options.token ?? DEFAULT_TOKEN;
  const botId = Number(token.split(":")[0]) || 123456;
  const botUser: User = { id: botId, is_bot: true, first_name: BOT_NAME, username: BOT_USERNAME };
  const me: UserFromGetMe = {
    ...botUser,
    is_bot: true,
    username: BOT_USERNAME,
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
    has_topics_enabled: false,
    allows_users_to_create_topics: false,
    can_manage_bots: false,
    supports_join_request_queries: false,
  };

  const calls: BotApiCall[] = [];
  const waiters = new Set<Waiter>();
  let pending: Update[] = [];
  let nextUpdateId = 1;
  /** The highest update_id written to a getUpdates answer. */
  let delivered = 0;
  // Long polls waiting for an update; each wakes by re-reading the queue.
  const polls = new Set<(reason: "update" | "closed") => void>();
  const failures = new Map<string, { error: BotApiError; times: number }>();
  const holds: Hold[] = [];
  const filesById = new Map<string, StoredFile>();
  const filesByPath = new Map<string, StoredFile>();
  let nextFile = 1;
  const sent = new Map<string, Message>();
  let nextMessageId = 1;
  let closed = false;

  const record = (method: string, payload: Record<string, unknown>): BotApiCall => {
    const call: BotApiCall = { method, payload, at: Date.now() };
    calls.push(call);
    const index = calls.length - 1;
    for (const w of waiters) {
      if (index >= w.after && w.method === method && w.match(payload)) {
        waiters.delete(w);
        w.resolve(call);
      }
    }
    return call;
  };

  const chatIdOf = (payload: Record<string, unknown>): number => {
    const raw = payload.chat_id;
    if (raw === undefined || raw === "") throw badRequest("chat_id is empty");
    const id = typeof raw === "number" ? raw : Number(raw);
    if (!Number.isSafeInteger(id)) throw badRequest("chat not found");
    return id;
  };

  const textOf = (payload: Record<string, unknown>): string => {
    const text = payload.text;
    if (typeof text !== "string" || text.trim() === "") throw badRequest("message text is empty");
    if (text.length > MAX_TEXT) throw badRequest("message is too long");
    const problem = markupProblem(text, payload.parse_mode);
    if (problem) throw badRequest(`can't parse entities: ${problem}`);
    return text;
  };

  const inlineMarkup = (payload: Record<string, unknown>): InlineKeyboardMarkup | undefined => {
    const markup = payload.reply_markup;
    // Telegram echoes only inline keyboards in the returned Message.
    if (typeof markup === "object" && markup !== null && "inline_keyboard" in markup) {
      return markup as InlineKeyboardMarkup;
    }
    return undefined;
  };

  const edit = (
    payload: Record<string, unknown>,
    change: (old: Message | undefined) => Message,
  ): Message | true => {
    if (payload.inline_message_id !== undefined) return true;
    const chatId = chatIdOf(payload);
    const messageId = Number(payload.message_id);
    if (!Number.isSafeInteger(messageId)) throw badRequest("message identifier is not specified");
    const key = `${chatId}:${messageId}`;
    const old = sent.get(key);
    const updated = change(old);
    if (old && JSON.stringify(old) === JSON.stringify(updated)) {
      throw badRequest(
        "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
      );
    }
    sent.set(key, updated);
    return updated;
  };

  const baseMessage = (chatId: number, messageId: number): Message => ({
    message_id: messageId,
    date: nowSeconds(),
    chat: { id: chatId, type: "private", first_name: "x" },
    from: botUser,
  });

  const takeFailure = (method: string): BotApiError | undefined => {
    const failure = failures.get(method);
    if (!failure) return undefined;
    failure.times -= 1;
    if (failure.times <= 0) failures.delete(method);
    return failure.error;
  };

  const confirm = (payload: Record<string, unknown>): void => {
    const offset = Number(payload.offset ?? 0);
    if (Number.isFinite(offset) && offset > 0) pending = pending.filter((u) => u.update_id >= offset);
  };

  const getUpdates = (
    payload: Record<string, unknown>,
    res: ServerResponse,
    call: BotApiCall,
  ): Promise<Update[]> => {
    confirm(payload);
    const limit = Math.min(Math.max(Number(payload.limit ?? 100) || 100, 1), 100);
    const timeoutSeconds = Math.max(Number(payload.timeout ?? 0) || 0, 0);
    const available = (): Update[] => pending.slice(0, limit);
    if (available().length > 0 || timeoutSeconds === 0 || closed) return Promise.resolve(available());
    return new Promise((resolve) => {
      const finish = (reason: NonNullable<BotApiCall["endedBy"]>): void => {
        clearTimeout(timer);
        polls.delete(finish);
        res.off("close", gone);
        call.endedBy = reason;
        resolve(available());
      };
      const gone = () => finish("client");
      const timer = setTimeout(() => finish("timeout"), timeoutSeconds * 1000);
      polls.add(finish);
      // A client that gives up (bot.stop aborts its poll) ends the wait; nothing is written to it.
      res.on("close", gone);
    });
  };

  const answer = async (
    method: string,
    payload: Record<string, unknown>,
    res: ServerResponse,
    call: BotApiCall,
  ): Promise<unknown> => {
    const failure = takeFailure(method);
    if (failure) throw new ApiFailure(failure);
    switch (method) {
      case "getMe":
        return me;
      case "getUpdates":
        return getUpdates(payload, res, call);
      case "sendMessage": {
        const chatId = chatIdOf(payload);
        const text = textOf(payload);
        const markup = inlineMarkup(payload);
        const message: Message = {
          ...baseMessage(chatId, nextMessageId++),
          text,
          ...(markup ? { reply_markup: markup } : {}),
        };
        sent.set(`${chatId}:${message.message_id}`, message);
        return message;
      }
      case "editMessageText": {
        const text = textOf(payload);
        const markup = inlineMarkup(payload);
        return edit(payload, (old) => {
          const base = old ?? baseMessage(chatIdOf(payload), Number(payload.message_id));
          const { reply_markup: _dropped, ...rest } = base;
          return { ...rest, text, ...(markup ? { reply_markup: markup } : {}) };
        });
      }
      case "editMessageReplyMarkup": {
        const markup = inlineMarkup(payload);
        return edit(payload, (old) => {
          const base = old ?? baseMessage(chatIdOf(payload), Number(payload.message_id));
          const { reply_markup: _dropped, ...rest } = base;
          return { ...rest, ...(markup ? { reply_markup: markup } : {}) };
        });
      }
      case "sendDocument": {
        const chatId = chatIdOf(payload);
        const upload = payload.document as UploadedFile | string | undefined;
        if (!upload || typeof upload === "string") throw badRequest("there is no document in the request");
        const n = nextFile++;
        const message: Message = {
          ...baseMessage(chatId, nextMessageId++),
          document: {
            file_id: `FAKE-SENT-${n}`,
            file_unique_id: `FAKESENT${n}`,
            file_name: upload.file_name,
            file_size: upload.bytes.length,
          },
          ...(typeof payload.caption === "string" ? { caption: payload.caption } : {}),
        };
        sent.set(`${chatId}:${message.message_id}`, message);
        return message;
      }
      case "deleteMessage":
        sent.delete(`${chatIdOf(payload)}:${Number(payload.message_id)}`);
        return true;
      case "getWebhookInfo":
        return { url: "", has_custom_certificate: false, pending_update_count: pending.length };
      case "getFile": {
        const stored = typeof payload.file_id === "string" ? filesById.get(payload.file_id) : undefined;
        if (!stored) throw badRequest("invalid file_id");
        if (stored.file.file_size > GET_FILE_LIMIT) throw badRequest("file is too big");
        return { ...stored.file, file_path: stored.path };
      }
      default:
        if (TRUE_METHODS.has(method)) return true;
        throw new ApiFailure({ error_code: 404, description: "Not Found: method not found" });
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (closed) {
      req.socket.destroy();
      return;
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (file) {
      if (decodeURIComponent(file[1] ?? "") !== token) return sendJson(res, 401, unauthorized());
      const stored = filesByPath.get(decodeURIComponent(file[2] ?? ""));
      if (!stored) return sendJson(res, 404, { ok: false, error_code: 404, description: "Not Found" });
      res.writeHead(200, {
        "content-type": "application/octet-stream",
        "content-length": stored.bytes.length,
      });
      res.end(stored.bytes);
      return;
    }
    const api = /^\/bot([^/]+)\/([A-Za-z0-9_/]+)$/.exec(url.pathname);
    if (!api) return sendJson(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    if (decodeURIComponent(api[1] ?? "") !== token) return sendJson(res, 401, unauthorized());
    const method = api[2] ?? "";
    let payload: Record<string, unknown>;
    try {
      payload = { ...Object.fromEntries(url.searchParams), ...(await readJson(req)) };
    } catch (error) {
      const description = error instanceof Error ? error.message : "Bad Request";
      return sendJson(res, 400, { ok: false, error_code: 400, description });
    }
    const call = record(method, payload);
    const hold = holds.find((h) => h.method === method && h.match(payload));
    if (hold) {
      holds.splice(holds.indexOf(hold), 1);
      hold.reached(call);
      await hold.released;
    }
    try {
      const result = await answer(method, payload, res, call);
      call.result = result;
      if (!res.writableEnded && !res.destroyed) {
        sendJson(res, 200, { ok: true, result });
        const last = method === "getUpdates" && Array.isArray(result) ? (result.at(-1) as Update) : undefined;
        if (last) delivered = Math.max(delivered, last.update_id);
      }
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      sendJson(res, error.error.error_code, { ok: false, ...error.error });
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, {
          ok: false,
          error_code: 500,
          description: `Internal Server Error: ${String(error)}`,
        });
      }
    });
  });
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const port = await listen(0);

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    botUsername: BOT_USERNAME,
    calls,
    callsOf: (method) => calls.filter((c) => c.method === method),
    callsTo: (chatId) =>
      calls.filter((c) => c.payload.chat_id === chatId || c.payload.chat_id === String(chatId)),
    waitForCall(method, match = () => true, options = {}) {
      const after = options.after ?? 0;
      const timeoutMs = options.timeoutMs ?? 10_000;
      const seen = calls.find((c, i) => i >= after && c.method === method && match(c.payload));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          method,
          match,
          after,
          resolve: (call) => {
            clearTimeout(timer);
            resolve(call);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const list = calls
            .slice(after)
            .map((c) => `  ${c.method} ${JSON.stringify(c.payload).slice(0, 300)}`);
          reject(
            new Error(
              `no matching ${method} call within ${timeoutMs} ms; calls seen since #${after}:\n${list.join("\n") || "  (none)"}`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    pushUpdate(update) {
      const update_id = nextUpdateId++;
      pending.push({ ...update, update_id });
      for (const wake of [...polls]) wake("update");
      return update_id;
    },
    pendingUpdates: () => [...pending],
    undeliveredUpdates: () => pending.filter((update) => update.update_id > delivered),
    addFile(bytes, fileOptions = {}) {
      const n = nextFile++;
      const file: FakeFile = {
        file_id: `FAKE-FILE-${n}-${randomUUID()}`,
        file_unique_id: `FAKEUNIQ${n}`,
        file_size: fileOptions.fileSize ?? bytes.length,
      };
      const extension = (fileOptions.extension ?? sniffExtension(bytes)).replace(/^\./, "");
      const stored: StoredFile = { file, bytes, path: `documents/file_${n}.${extension}` };
      filesById.set(file.file_id, stored);
      filesByPath.set(stored.path, stored);
      return { ...file };
    },
    holdNext(method, match = () => true) {
      let reached: (call: BotApiCall) => void = () => undefined;
      let release: () => void = () => undefined;
      const hold: Hold = {
        method,
        match,
        reached: (call) => reached(call),
        released: new Promise<void>((resolve) => (release = resolve)),
      };
      holds.push(hold);
      return { reached: new Promise<BotApiCall>((resolve) => (reached = resolve)), release: () => release() };
    },
    failNext(method, error, times = 1) {
      failures.set(method, { error, times });
    },
    async close() {
      if (closed) return;
      closed = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Answer open long polls with [] so the client sees a clean end, then cut every socket.
      for (const wake of [...polls]) wake("closed");
      await new Promise((resolve) => setImmediate(resolve));
      server.closeAllConnections();
      await stopped;
    },
    async reopen() {
      if (!closed) return;
      await listen(port);
      closed = false;
    },
  };
}

function unauthorized(): Record<string, unknown> {
  return { ok: false, error_code: 401, description: "Unauthorized" };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY) throw new Error("Bad Request: request body too large");
    chunks.push(buffer);
  }
  const body = Buffer.concat(chunks);
  const text = body.toString("utf8");
  if (text.trim() === "") return {};
  const type = req.headers["content-type"] ?? "";
  // grammY uploads files (sendDocument) as multipart.
  if (type.toLowerCase().startsWith("multipart/form-data")) return readMultipart(body, type);
  if (!type.toLowerCase().startsWith("application/json"))
    throw new Error("Bad Request: this fake accepts JSON and multipart bodies");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error("Bad Request: invalid JSON body");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error("Bad Request: the body must be a JSON object");
  }
  return parsed as Record<string, unknown>;
}

/** An uploaded file as the fake keeps it: the payload's `document` is one of these after an upload. */
export interface UploadedFile {
  file_name: string;
  bytes: Buffer;
}

/**
 * A multipart body as grammY sends it: parameters as text (objects as JSON), each file as its own part
 * that a parameter names with "attach://<part>". Files take the place of their parameter. Parsed by hand:
 * grammY writes `filename=` unquoted, which undici's strict FormData parser refuses (real Telegram takes it).
 */
function readMultipart(body: Buffer, type: string): Record<string, unknown> {
  const boundary = /boundary=("?)([^";]+)\1/i.exec(type)?.[2];
  if (!boundary) throw new Error("Bad Request: multipart body without a boundary");
  const fields: Record<string, unknown> = {};
  const files = new Map<string, UploadedFile>();
  const delimiter = Buffer.from(`--${boundary}`);
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const partStart = start + delimiter.length;
    if (body.subarray(partStart, partStart + 2).toString() === "--") break;
    const end = body.indexOf(delimiter, partStart);
    if (end === -1) break;
    // Each part: CRLF, headers, a blank line, the content, CRLF before the next delimiter.
    const part = body.subarray(partStart + 2, end - 2);
    const blank = part.indexOf("\r\n\r\n");
    const headers = part.subarray(0, blank).toString("utf8");
    const content = part.subarray(blank + 4);
    const name = /name="([^"]*)"/i.exec(headers)?.[1] ?? "";
    const filename = /filename=(?:"([^"]*)"|([^\r\n;]*))/i.exec(headers);
    if (filename)
      files.set(name, { file_name: filename[1] ?? filename[2] ?? "", bytes: Buffer.from(content) });
    else {
      const value = content.toString("utf8");
      fields[name] = /^[[{]/.test(value) ? JSON.parse(value) : value;
    }
    start = end;
  }
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string" && value.startsWith("attach://")) {
      const file = files.get(value.slice("attach://".length));
      if (!file) throw new Error(`Bad Request: no file part for ${name}`);
      fields[name] = file;
    }
  }
  return fields;
}

function sniffExtension(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 12));
  if (head.subarray(0, 4).toString("latin1") === "%PDF") return "pdf";
  if (head[0] === 0xff && head[1] === 0xd8) return "jpg";
  if (head.subarray(1, 4).toString("latin1") === "PNG") return "png";
  if (
    head.subarray(0, 4).toString("latin1") === "RIFF" &&
    head.subarray(8, 12).toString("latin1") === "WEBP"
  ) {
    return "webp";
  }
  return "bin";
}

const HTML_TAGS = new Set([
  "b",
  "strong",
  "i",
  "em",
  "u",
  "ins",
  "s",
  "strike",
  "del",
  "span",
  "tg-spoiler",
  "a",
  "tg-emoji",
  "code",
  "pre",
  "blockquote",
]);
const MARKDOWN_V2_RESERVED = "_*[]()~`>#+-=|{}.!";

/**
 * A rough check of the mistakes Telegram refuses with "can't parse entities": unknown or unbalanced HTML tags,
 * a bare `&` or `<`, and MarkdownV2's unescaped reserved characters. It errs towards accepting.
 */
export function markupProblem(text: string, parseMode: unknown): string | undefined {
  if (typeof parseMode !== "string") return undefined;
  if (parseMode.toLowerCase() === "html") return htmlProblem(text);
  if (parseMode.toLowerCase() === "markdownv2") return markdownV2Problem(text);
  return undefined;
}

function htmlProblem(text: string): string | undefined {
  const open: string[] = [];
  const token = /<(\/?)([^\s>/]*)[^>]*>|<|&(#\d+|#x[0-9a-f]+|[a-z]+);|&/gi;
  for (const m of text.matchAll(token)) {
    const whole = m[0];
    if (whole === "&") return `Can't find end of the entity starting at byte offset ${m.index}`;
    if (whole.startsWith("&")) {
      const name = (m[3] ?? "").toLowerCase();
      if (!name.startsWith("#") && !["lt", "gt", "amp", "quot"].includes(name)) {
        return `Unsupported HTML entity "${whole}"`;
      }
      continue;
    }
    if (whole === "<") return `Unsupported start tag "" at byte offset ${m.index}`;
    const tag = (m[2] ?? "").toLowerCase();
    if (!HTML_TAGS.has(tag)) return `Unsupported start tag "${tag}" at byte offset ${m.index}`;
    if (m[1] === "/") {
      const expected = open.pop();
      if (expected !== tag)
        return `Unmatched end tag at byte offset ${m.index}, expected "</${expected ?? ""}>"`;
    } else {
      open.push(tag);
    }
  }
  const last = open.at(-1);
  return last ? `Can't find end tag corresponding to start tag "${last}"` : undefined;
}

function markdownV2Problem(text: string): string | undefined {
  let inCode: "" | "`" | "```" = "";
  let inLinkUrl = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? "";
    if (ch === "\\") {
      i++;
      continue;
    }
    if (inCode) {
      if (text.startsWith(inCode, i)) {
        i += inCode.length - 1;
        inCode = "";
      }
      continue;
    }
    if (inLinkUrl) {
      if (ch === ")") inLinkUrl = false;
      continue;
    }
    if (text.startsWith("```", i)) {
      inCode = "```";
      i += 2;
    } else if (ch === "`") {
      inCode = "`";
    } else if (ch === "]" && text[i + 1] === "(") {
      inLinkUrl = true;
      i++;
    } else if ("_*[]~>|".includes(ch)) {
      // Formatting characters; their pairing is not checked here.
    } else if (MARKDOWN_V2_RESERVED.includes(ch)) {
      return `Character '${ch}' is reserved and must be escaped with the preceding '\\'`;
    }
  }
  return undefined;
}

// ---- update builders ---------------------------------------------------------------------------------------

export interface FakeUser {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

type PrivateMessage = Message & Update.NonChannel;

// Incoming message ids start far from the ids the server gives the bot's own messages.
let nextIncomingId = 100_000;
let nextCallbackId = 1;

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

function userOf(from: FakeUser): User {
  return { ...from, is_bot: false, first_name: from.first_name ?? "Tester" };
}

function privateChat(from: FakeUser): PrivateMessage["chat"] {
  return {
    id: from.id,
    type: "private",
    first_name: from.first_name ?? "Tester",
    ...(from.last_name ? { last_name: from.last_name } : {}),
    ...(from.username ? { username: from.username } : {}),
  };
}

function incoming(from: FakeUser): PrivateMessage {
  return { message_id: nextIncomingId++, date: nowSeconds(), chat: privateChat(from), from: userOf(from) };
}

/** What Telegram marks in a text: a leading /command (grammY's command() needs it) and http(s) links. */
export function entitiesOf(text: string): MessageEntity[] {
  const entities: MessageEntity[] = [];
  const command = /^\/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]+)?/.exec(text);
  if (command) entities.push({ type: "bot_command", offset: 0, length: command[0].length });
  for (const m of text.matchAll(/https?:\/\/[^\s<>"]+/gi)) {
    const link = m[0].replace(/[.,;:!?)\]'"]+$/, "");
    entities.push({ type: "url", offset: m.index, length: link.length });
  }
  return entities;
}

export function textMessage(
  from: FakeUser,
  text: string,
  extra: Partial<Message> = {},
): Omit<Update, "update_id"> {
  const entities = entitiesOf(text);
  const message = { ...incoming(from), text, ...(entities.length ? { entities } : {}), ...extra };
  return { message: message as PrivateMessage };
}

export function photoMessage(from: FakeUser, file: FakeFile, caption?: string): Omit<Update, "update_id"> {
  // Telegram sends several sizes, each its own file; the largest (the original) is last.
  const thumb = {
    file_id: `${file.file_id}-thumb`,
    file_unique_id: `${file.file_unique_id}-thumb`,
    width: 90,
    height: 120,
    file_size: Math.min(file.file_size, 1500),
  };
  const full = { ...file, width: 960, height: 1280 };
  return { message: { ...incoming(from), photo: [thumb, full], ...captionOf(caption) } };
}

/**
 * A photo as Telegram delivers it: one file per size (90, 320, 800 and 1280 px on the long side for a phone's
 * photo), smallest first, each with its own dimensions.
 */
export function photoSizesMessage(
  from: FakeUser,
  sizes: readonly { file: FakeFile; width: number; height: number }[],
  caption?: string,
): Omit<Update, "update_id"> {
  const photo = sizes.map(({ file, width, height }) => ({ ...file, width, height }));
  return { message: { ...incoming(from), photo, ...captionOf(caption) } };
}

export function documentMessage(
  from: FakeUser,
  file: FakeFile,
  meta: { file_name: string; mime_type: string },
  caption?: string,
): Omit<Update, "update_id"> {
  return { message: { ...incoming(from), document: { ...file, ...meta }, ...captionOf(caption) } };
}

function captionOf(caption: string | undefined): { caption?: string; caption_entities?: MessageEntity[] } {
  if (caption === undefined) return {};
  const entities = entitiesOf(caption);
  return { caption, ...(entities.length ? { caption_entities: entities } : {}) };
}

/** A press on an inline button of a message the bot sent to `message.chat_id`. */
export function callbackQuery(
  from: FakeUser,
  data: string,
  message: { message_id: number; chat_id: number; text?: string },
): Omit<Update, "update_id"> {
  const bot: User = { id: 123456, is_bot: true, first_name: BOT_NAME, username: BOT_USERNAME };
  return {
    callback_query: {
      id: `cbq-${nextCallbackId++}-${randomUUID().slice(0, 8)}`,
      from: userOf(from),
      chat_instance: `ci-${message.chat_id}`,
      data,
      message: {
        message_id: message.message_id,
        date: nowSeconds(),
        chat: { id: message.chat_id, type: "private", first_name: from.first_name ?? "Tester" },
        from: bot,
        ...(message.text !== undefined ? { text: message.text } : {}),
      },
    },
  };
}

/** A text the cashier forwarded from someone else (e.g. a customer's receipt SMS shared in Telegram). */
export function forwardedText(
  from: FakeUser,
  text: string,
  origin: { id: number; first_name: string } = { id: 777_000_001, first_name: "Customer" },
): Omit<Update, "update_id"> {
  const forward_origin: MessageOriginUser = {
    type: "user",
    date: nowSeconds() - 60,
    sender_user: { id: origin.id, is_bot: false, first_name: origin.first_name },
  };
  return textMessage(from, text, { forward_origin });
}

// ---- group chats ------------------------------------------------------------------------------------------

export interface FakeGroup {
  /** Negative, as Telegram numbers groups. */
  id: number;
  title: string;
  type?: "group" | "supergroup";
}

function groupChat(group: FakeGroup): Message["chat"] & { type: "group" | "supergroup" } {
  return { id: group.id, type: group.type ?? "supergroup", title: group.title } as Message["chat"] & {
    type: "group" | "supergroup";
  };
}

/** The same message (text, photo, document, forward) posted in a group instead of a private chat. */
export function inGroupChat(group: FakeGroup, update: Omit<Update, "update_id">): Omit<Update, "update_id"> {
  if (!update.message) throw new Error("only messages can be posted in a group");
  return { message: { ...update.message, chat: groupChat(group) } as Message & Update.NonChannel };
}

/** The service message Telegram posts when someone adds members to the group. */
export function membersAdded(from: FakeUser, group: FakeGroup, added: FakeUser[]): Omit<Update, "update_id"> {
  return inGroupChat(group, {
    message: { ...incoming(from), new_chat_members: added.map(userOf) } as PrivateMessage,
  });
}

/** The bot's own membership of the group changed (added, removed), as a my_chat_member update. */
export function botMembership(
  by: FakeUser,
  group: FakeGroup,
  status: "member" | "left" | "kicked",
  botId = 123456,
): Omit<Update, "update_id"> {
  const bot: User = { id: botId, is_bot: true, first_name: BOT_NAME, username: BOT_USERNAME };
  const member = (memberStatus: "member" | "left" | "kicked") =>
    memberStatus === "kicked"
      ? { status: "kicked" as const, user: bot, until_date: 0 }
      : { status: memberStatus, user: bot };
  return {
    my_chat_member: {
      chat: groupChat(group),
      from: userOf(by),
      date: nowSeconds(),
      old_chat_member: member(status === "member" ? "left" : "member"),
      new_chat_member: member(status),
    },
  };
}
