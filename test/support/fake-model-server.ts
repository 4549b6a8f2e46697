// A scripted model endpoint on loopback that speaks OpenAI Chat Completions and Anthropic Messages, so
// tests run the real `openai` and `@anthropic-ai/sdk` clients (request building, auth headers, response
// parsing, error classes, SSE streams) against answers the test decides, one scripted turn per request.
// Wire shapes follow the SDKs' own type definitions (ChatCompletion, ChatCompletionChunk, Message,
// RawMessageStreamEvent), with every required field present, nullable ones as null.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  name: string;
  input: Record<string, unknown>;
  id?: string;
}
export interface ScriptedTurn {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Token usage reported for this answer; default { input: 100, output: 20 }. */
  usage?: { input: number; output: number };
  /** Answer with this HTTP error status instead (e.g. 500, 429) and an error body in the protocol's shape; `text`, if set, is its message. */
  status?: number;
}
export type Protocol = 'openai' | 'anthropic';
export interface RecordedRequest {
  protocol: Protocol;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body as the client sent it (checked to be an object with `model` and `messages`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- client-built JSON that tests read freely
  body: any;
}
/** A turn, or a function of the request that returns one (e.g. to answer based on the last tool result). */
export type Step = ScriptedTurn | ((request: RecordedRequest) => ScriptedTurn | Promise<ScriptedTurn>);
export interface FakeModelServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** `${url}/v1`, the `baseURL` for the `openai` client. */
  openaiBaseUrl: string;
  /** `url`, the `baseURL` for the `@anthropic-ai/sdk` client (it adds `/v1/messages` itself). */
  anthropicBaseUrl: string;
  /** Every authenticated, well-formed request, in arrival order (including those answered with an error). */
  requests: RecordedRequest[];
  /** Appends steps, answered in order, one per request (either protocol). */
  script(...steps: Step[]): void;
  /** After the scripted steps run out, answer every further request with this (e.g. a model that loops). Without it, an exhausted script answers HTTP 500 `script exhausted` and records it in `unexpected`. */
  repeat(step: Step): void;
  /** Requests that arrived after the script ran out (without repeat), or that were malformed. */
  unexpected: string[];
  close(): Promise<void>;
}

const DEFAULT_USAGE = { input: 100, output: 20 };
const ENDPOINTS: Record<string, Protocol> = { '/v1/chat/completions': 'openai', '/v1/messages': 'anthropic' };

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const records = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);

/** Splits text into up to three pieces, so stream consumers really have to join deltas. */
function pieces(text: string): string[] {
  const chars = Array.from(text); // code points: never split a surrogate pair
  const size = Math.max(1, Math.ceil(chars.length / 3));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

// The error `type` each API reports for a status (what the SDKs surface as `error.type`).
function openaiErrorType(status: number): string {
  if (status === 429) return 'requests';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}
function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}
function errorBody(protocol: Protocol, status: number, message: string): Json {
  return protocol === 'openai'
    ? { error: { message, type: openaiErrorType(status), param: null, code: status === 401 ? 'invalid_api_key' : null } }
    : { type: 'error', error: { type: anthropicErrorType(status), message } };
}

/** Why a request is not authenticated the way its SDK authenticates, or undefined when it is. */
function authProblem(protocol: Protocol, headers: IncomingMessage['headers']): string | undefined {
  const bearer = /^Bearer \S+/.test(headers.authorization ?? '');
  if (protocol === 'openai') return bearer ? undefined : 'no `Authorization: Bearer <key>` header';
  // The Anthropic API takes `x-api-key`; @anthropic-ai/sdk 1.x sends an API key as `Authorization: Bearer`.
  const apiKey = typeof headers['x-api-key'] === 'string' && headers['x-api-key'] !== '';
  if (!apiKey && !bearer) return 'no `x-api-key` or `Authorization: Bearer <key>` header';
  if (typeof headers['anthropic-version'] !== 'string' || headers['anthropic-version'] === '')
    return 'no `anthropic-version` header';
  return undefined;
}

/** Why a body is not a request of `protocol`, or undefined when it is one. */
function bodyProblem(protocol: Protocol, body: unknown): string | undefined {
  if (!isRecord(body)) return 'body is not a JSON object';
  if (typeof body.model !== 'string' || body.model === '') return 'body lacks `model`';
  if (!Array.isArray(body.messages)) return 'body lacks `messages`';
  if (protocol === 'anthropic' && typeof body.max_tokens !== 'number') return 'body lacks `max_tokens`';
  return undefined;
}

interface Answer {
  id: string;
  model: string;
  created: number;
  text: string | undefined;
  calls: Array<{ id: string; name: string; arguments: string }>;
  usage: { input: number; output: number };
}

function openaiJson(a: Answer): Json {
  return {
    id: a.id,
    object: 'chat.completion',
    created: a.created,
    model: a.model,
    choices: [
      {
        index: 0,
        finish_reason: a.calls.length > 0 ? 'tool_calls' : 'stop',
        logprobs: null,
        message: {
          role: 'assistant',
          content: a.text ?? (a.calls.length > 0 ? null : ''),
          refusal: null,
          ...(a.calls.length > 0
            ? {
                tool_calls: a.calls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
      },
    ],
    usage: { prompt_tokens: a.usage.input, completion_tokens: a.usage.output, total_tokens: a.usage.input + a.usage.output },
  };
}

function openaiChunks(a: Answer, includeUsage: boolean): Json[] {
  const chunk = (delta: Json, finishReason: string | null = null): Json => ({
    id: a.id,
    object: 'chat.completion.chunk',
    created: a.created,
    model: a.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks = [chunk({ role: 'assistant', content: a.text === undefined ? null : '', refusal: null })];
  for (const piece of pieces(a.text ?? '')) chunks.push(chunk({ content: piece }));
  a.calls.forEach((c, index) => {
    chunks.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const piece of pieces(c.arguments)) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, a.calls.length > 0 ? 'tool_calls' : 'stop'));
  // As the API does: usage only on request (`stream_options.include_usage`), in a last chunk without choices.
  if (includeUsage) {
    chunks.push({
      id: a.id,
      object: 'chat.completion.chunk',
      created: a.created,
      model: a.model,
      choices: [],
      usage: { prompt_tokens: a.usage.input, completion_tokens: a.usage.output, total_tokens: a.usage.input + a.usage.output },
    });
  }
  return chunks;
}

function anthropicUsage(input: number, output: number): Json {
  return {
    input_tokens: input,
    output_tokens: output,
    cache_creation: null,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
    inference_geo: null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: 'standard',
    speed: null,
  };
}
const anthropicText = (text: string): Json => ({ type: 'text', text, citations: null });
const anthropicToolUse = (c: Answer['calls'][number], input: unknown): Json => ({
  type: 'tool_use',
  id: c.id,
  name: c.name,
  input,
  caller: { type: 'direct' },
});
const anthropicStopReason = (a: Answer): string => (a.calls.length > 0 ? 'tool_use' : 'end_turn');
const anthropicHasText = (a: Answer): boolean => a.text !== undefined || a.calls.length === 0;

function anthropicMessage(a: Answer, content: Json[], stopReason: string | null, usage: Json): Json {
  return {
    id: a.id,
    type: 'message',
    role: 'assistant',
    model: a.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage,
  };
}

function anthropicJson(a: Answer): Json {
  const content = [
    ...(anthropicHasText(a) ? [anthropicText(a.text ?? '')] : []),
    ...a.calls.map((c) => anthropicToolUse(c, JSON.parse(c.arguments) as unknown)),
  ];
  return anthropicMessage(a, content, anthropicStopReason(a), anthropicUsage(a.usage.input, a.usage.output));
}

function anthropicEvents(a: Answer): Json[] {
  const events: Json[] = [{ type: 'message_start', message: anthropicMessage(a, [], null, anthropicUsage(a.usage.input, 1)) }];
  let index = 0;
  const block = (start: Json, deltas: Json[]): void => {
    events.push({ type: 'content_block_start', index, content_block: start });
    for (const delta of deltas) events.push({ type: 'content_block_delta', index, delta });
    events.push({ type: 'content_block_stop', index });
    index += 1;
  };
  if (anthropicHasText(a))
    block(
      anthropicText(''),
      pieces(a.text ?? '').map((text) => ({ type: 'text_delta', text })),
    );
  for (const c of a.calls)
    block(
      anthropicToolUse(c, {}),
      pieces(c.arguments).map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    );
  events.push({
    type: 'message_delta',
    delta: { stop_reason: anthropicStopReason(a), stop_sequence: null, stop_details: null, container: null },
    usage: {
      input_tokens: a.usage.input,
      output_tokens: a.usage.output,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      output_tokens_details: null,
      server_tool_use: null,
    },
  });
  events.push({ type: 'message_stop' });
  return events;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, requestId: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json', 'x-request-id': requestId, 'request-id': requestId })
    .end(JSON.stringify(body));
}

export async function startFakeModelServer(): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  const unexpected: string[] = [];
  const steps: Step[] = [];
  let next = 0;
  let fallback: Step | undefined;
  let counter = 0; // for response and request ids
  let toolCalls = 0; // generated tool-call ids: call_1, toolu_2, … unique over the server's life

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `req_${++counter}`;
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const protocol = req.method === 'POST' ? ENDPOINTS[path] : undefined;
    const raw = await readBody(req);
    if (protocol === undefined) {
      unexpected.push(`${req.method} ${req.url}: no such endpoint`);
      return sendJson(res, 404, { error: { message: `no endpoint ${req.method} ${path}`, type: 'not_found_error' } }, requestId);
    }
    const refuse = (status: number, problem: string): void => {
      unexpected.push(`${protocol} ${path}: ${problem}`);
      sendJson(res, status, errorBody(protocol, status, problem), requestId);
    };
    const auth = authProblem(protocol, req.headers);
    if (auth !== undefined) return refuse(401, auth);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return refuse(400, 'body is not JSON');
    }
    const malformed = bodyProblem(protocol, body);
    if (malformed !== undefined) return refuse(400, malformed);

    const request: RecordedRequest = { protocol, path, headers: { ...req.headers }, body };
    requests.push(request);
    const step = next < steps.length ? steps[next++] : fallback;
    if (step === undefined)
      return refuse(500, `script exhausted: request ${requests.length} after ${steps.length} scripted step(s)`);
    let turn: ScriptedTurn;
    try {
      turn = typeof step === 'function' ? await step(request) : step;
    } catch (err) {
      return refuse(500, `step ${requests.length} threw: ${String(err)}`);
    }
    if (turn.status !== undefined)
      return sendJson(res, turn.status, errorBody(protocol, turn.status, turn.text ?? `scripted ${turn.status}`), requestId);

    const answer: Answer = {
      id: protocol === 'openai' ? `chatcmpl-${++counter}` : `msg_${++counter}`,
      model: (body as Json).model as string,
      created: Math.floor(Date.now() / 1000),
      text: turn.text,
      calls: (turn.toolCalls ?? []).map((c) => ({
        id: c.id ?? `${protocol === 'openai' ? 'call' : 'toolu'}_${++toolCalls}`,
        name: c.name,
        arguments: JSON.stringify(c.input),
      })),
      usage: turn.usage ?? DEFAULT_USAGE,
    };
    const json = body as Json;
    if (json.stream !== true)
      return sendJson(res, 200, protocol === 'openai' ? openaiJson(answer) : anthropicJson(answer), requestId);

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-request-id': requestId,
      'request-id': requestId,
    });
    if (protocol === 'openai') {
      const includeUsage = isRecord(json.stream_options) && json.stream_options.include_usage === true;
      for (const chunk of openaiChunks(answer, includeUsage)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end('data: [DONE]\n\n');
    } else {
      // The SDK skips events without an `event:` line: the name goes on both lines, as the API sends it.
      for (const event of anthropicEvents(answer)) res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
      res.end();
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      unexpected.push(`${req.method} ${req.url}: server failed: ${String(err)}`);
      if (res.headersSent) return void res.destroy(); // a broken request must fail that request, never the test process
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    requests,
    unexpected,
    script: (...more) => void steps.push(...more),
    repeat: (step) => void (fallback = step),
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections(); // the SDKs' keep-alive sockets would otherwise hold close() open
      await closed;
    },
  };
}

/** Text of a message content: a string, or the `text` of its text parts/blocks, joined. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return records(content)
    .filter((p) => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n');
}

/** The tool results the client sent in its latest message(s), normalised across protocols. */
export function lastToolResults(request: RecordedRequest): Array<{ id: string; content: string }> {
  const messages = records((request.body as Json).messages);
  if (request.protocol === 'openai') {
    const results: Array<{ id: string; content: string }> = [];
    for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'tool'; i--) {
      const m = messages[i] as Json;
      results.unshift({ id: String(m.tool_call_id), content: contentText(m.content) });
    }
    return results;
  }
  const last = messages.at(-1);
  if (last?.role !== 'user') return [];
  return records(last.content)
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ id: String(b.tool_use_id), content: contentText(b.content ?? '') }));
}

/** All system and user text of the request, joined by newlines (for asserting on prompts). */
export function systemAndUserText(request: RecordedRequest): string {
  const body = request.body as Json;
  const texts: string[] = [];
  if (request.protocol === 'anthropic' && body.system !== undefined) texts.push(contentText(body.system));
  const roles = request.protocol === 'openai' ? ['system', 'developer', 'user'] : ['user'];
  for (const m of records(body.messages)) if (roles.includes(String(m.role))) texts.push(contentText(m.content));
  return texts.filter((t) => t !== '').join('\n');
}

/** Names of the tools the request offered. */
export function toolNames(request: RecordedRequest): string[] {
  return records((request.body as Json).tools).flatMap((t) => {
    const name =
      request.protocol === 'openai'
        ? isRecord(t.function)
          ? t.function.name
          : isRecord(t.custom)
            ? t.custom.name
            : undefined
        : t.name;
    return typeof name === 'string' ? [name] : [];
  });
}
