// The fake model server is checked with the real clients: if an SDK parses its answers, raises its own
// error classes for its errors and accumulates its streams, tests built on it exercise real client code.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  lastToolResults,
  startFakeModelServer,
  systemAndUserText,
  toolNames,
  type FakeModelServer,
} from './fake-model-server.ts';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function start(): Promise<FakeModelServer> {
  const server = await startFakeModelServer();
  servers.push(server);
  return server;
}
const openai = (s: FakeModelServer) => new OpenAI({ apiKey: 'test-key', baseURL: s.openaiBaseUrl, maxRetries: 0 });
const anthropic = (s: FakeModelServer) => new Anthropic({ apiKey: 'test-key', baseURL: s.anthropicBaseUrl, maxRetries: 0 });

const openaiTools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
    },
  },
  { type: 'function', function: { name: 'run_tests', parameters: { type: 'object', properties: {} } } },
];
const anthropicTools: Anthropic.Messages.Tool[] = [
  { name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'run_tests', input_schema: { type: 'object', properties: {} } },
];

describe('fake model server, OpenAI Chat Completions', () => {
  it('round-trips a tool call: the SDK parses it, the next request carries its result', async () => {
    const server = await start();
    server.script(
      {
        text: 'Let me look.',
        toolCalls: [
          { name: 'read_file', input: { path: 'src/a.ts' } },
          { name: 'run_tests', input: {}, id: 'call_mine' },
        ],
      },
      (request) => ({
        text: `saw ${lastToolResults(request)
          .map((r) => `${r.id}=${r.content}`)
          .join(', ')}`,
      }),
    );
    const client = openai(server);
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You fix bugs.' },
      { role: 'user', content: [{ type: 'text', text: 'Make the tests pass.' }] },
    ];
    const first = await client.chat.completions.create({ model: 'gpt-test', messages, tools: openaiTools });
    const choice = first.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe('Let me look.');
    const calls = choice?.message.tool_calls ?? [];
    expect(
      calls.map((c) => (c.type === 'function' ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : c.type)),
    ).toEqual([
      ['call_1', 'read_file', { path: 'src/a.ts' }],
      ['call_mine', 'run_tests', {}],
    ]);
    expect(first.model).toBe('gpt-test');

    messages.push(
      choice!.message,
      { role: 'tool', tool_call_id: calls[0]!.id, content: 'export const a = 1;' },
      {
        role: 'tool',
        tool_call_id: 'call_mine',
        content: [{ type: 'text', text: '3 passed' }],
      },
    );
    const second = await client.chat.completions.create({ model: 'gpt-test', messages, tools: openaiTools });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toBe('saw call_1=export const a = 1;, call_mine=3 passed');

    const [r1, r2] = server.requests;
    expect(lastToolResults(r1!)).toEqual([]);
    expect(lastToolResults(r2!)).toEqual([
      { id: 'call_1', content: 'export const a = 1;' },
      { id: 'call_mine', content: '3 passed' },
    ]);
    expect(systemAndUserText(r2!)).toBe('You fix bugs.\nMake the tests pass.');
    expect(toolNames(r1!)).toEqual(['read_file', 'run_tests']);
    expect(r1!.protocol).toBe('openai');
    expect(r1!.path).toBe('/v1/chat/completions');
    expect(r1!.headers.authorization).toBe('Bearer test-key');
    expect(server.unexpected).toEqual([]);
  });

  it('answers plain text and reports the scripted (or default) usage', async () => {
    const server = await start();
    server.script({ text: 'Done.', usage: { input: 1234, output: 56 } }, { text: 'Again.' });
    const client = openai(server);
    const answer = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'Done.' });
    expect(answer.choices[0]?.message.tool_calls).toBeUndefined();
    expect(answer.usage).toMatchObject({ prompt_tokens: 1234, completion_tokens: 56, total_tokens: 1290 });
    const again = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(again.usage).toMatchObject({ prompt_tokens: 100, completion_tokens: 20 });
  });

  it('surfaces a scripted error status as the SDK error class with that status', async () => {
    const server = await start();
    server.script({ status: 500 }, { status: 429, text: 'slow down' });
    const client = openai(server);
    const ask = () => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    const e500 = await ask().catch((e: unknown) => e);
    expect(e500).toBeInstanceOf(OpenAI.InternalServerError);
    expect(e500).toMatchObject({ status: 500 });
    const e429 = await ask().catch((e: unknown) => e);
    expect(e429).toBeInstanceOf(OpenAI.RateLimitError);
    expect(e429).toMatchObject({ message: expect.stringContaining('slow down') });
    expect(server.unexpected).toEqual([]);
  });

  it('streams text, tool calls and usage that the stream helper accumulates', async () => {
    const server = await start();
    server.script({
      text: 'Reading the failing test first.',
      toolCalls: [{ name: 'read_file', input: { path: 'test/ü.test.ts', lines: [1, 20] } }],
      usage: { input: 7, output: 3 },
    });
    const stream = openai(server).chat.completions.stream({
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      tools: openaiTools,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    stream.on('content', (delta) => deltas.push(delta));
    const done = await stream.finalChatCompletion();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Reading the failing test first.');
    const message = done.choices[0]?.message;
    expect(done.choices[0]?.finish_reason).toBe('tool_calls');
    expect(message?.content).toBe('Reading the failing test first.');
    const call = message?.tool_calls?.[0];
    expect(call?.type === 'function' && [call.id, call.function.name, JSON.parse(call.function.arguments)]).toEqual([
      'call_1',
      'read_file',
      { path: 'test/ü.test.ts', lines: [1, 20] },
    ]);
    expect(done.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3 });
    expect(server.requests[0]?.body.stream).toBe(true);
    expect(server.unexpected).toEqual([]);
  });
});

describe('fake model server, Anthropic Messages', () => {
  it('round-trips a tool call: the SDK parses it, the next request carries its result', async () => {
    const server = await start();
    server.script(
      {
        text: 'Let me look.',
        toolCalls: [
          { name: 'read_file', input: { path: 'src/a.ts' } },
          { name: 'run_tests', input: {}, id: 'toolu_mine' },
        ],
        usage: { input: 900, output: 42 },
      },
      (request) => ({
        text: `saw ${lastToolResults(request)
          .map((r) => `${r.id}=${r.content}`)
          .join(', ')}`,
      }),
    );
    const client = anthropic(server);
    const messages: Anthropic.Messages.MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'Make the tests pass.' }] },
    ];
    const params = {
      model: 'claude-test',
      max_tokens: 1024,
      system: [{ type: 'text' as const, text: 'You fix bugs.' }],
      tools: anthropicTools,
    };
    const first = await client.messages.create({ ...params, messages });
    expect(first.stop_reason).toBe('tool_use');
    expect(first.usage).toMatchObject({ input_tokens: 900, output_tokens: 42 });
    expect(
      first.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? [b.id, b.name, b.input] : b.type)),
    ).toEqual(['Let me look.', ['toolu_1', 'read_file', { path: 'src/a.ts' }], ['toolu_mine', 'run_tests', {}]]);

    messages.push(
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const a = 1;' },
          { type: 'tool_result', tool_use_id: 'toolu_mine', content: [{ type: 'text', text: '3 passed' }], is_error: true },
        ],
      },
    );
    const second = await client.messages.create({ ...params, messages });
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content).toMatchObject([{ type: 'text', text: 'saw toolu_1=export const a = 1;, toolu_mine=3 passed' }]);
    expect(second.usage).toMatchObject({ input_tokens: 100, output_tokens: 20 });

    const [r1, r2] = server.requests;
    expect(lastToolResults(r1!)).toEqual([]);
    expect(lastToolResults(r2!)).toEqual([
      { id: 'toolu_1', content: 'export const a = 1;' },
      { id: 'toolu_mine', content: '3 passed' },
    ]);
    expect(systemAndUserText(r1!)).toBe('You fix bugs.\nMake the tests pass.');
    expect(toolNames(r1!)).toEqual(['read_file', 'run_tests']);
    expect(r1!.protocol).toBe('anthropic');
    expect(r1!.path).toBe('/v1/messages');
    expect(r1!.headers['anthropic-version']).toEqual(expect.any(String));
    // @anthropic-ai/sdk 1.x sends an API key as a bearer token (the server also takes the API's own `x-api-key`).
    expect(r1!.headers.authorization).toBe('Bearer test-key');
    expect(server.unexpected).toEqual([]);
  });

  it('answers plain text', async () => {
    const server = await start();
    server.script({ text: 'Done.' });
    const answer = await anthropic(server).messages.create({
      model: 'c',
      max_tokens: 10,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'c',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'Done.' }],
    });
    expect(systemAndUserText(server.requests[0]!)).toBe('Be brief.\nhi');
  });

  it('surfaces a scripted error status as the SDK error class with that status', async () => {
    const server = await start();
    server.script({ status: 500 }, { status: 529, text: 'overloaded' });
    const client = anthropic(server);
    const ask = () => client.messages.create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    const e500 = await ask().catch((e: unknown) => e);
    expect(e500).toBeInstanceOf(Anthropic.InternalServerError);
    expect(e500).toMatchObject({ status: 500 });
    const e529 = await ask().catch((e: unknown) => e);
    expect(e529).toBeInstanceOf(Anthropic.APIError);
    expect(e529).toMatchObject({ status: 529 });
    expect(e529).toMatchObject({ message: expect.stringContaining('overloaded') });
  });

  it('streams text and tool input that the stream helper accumulates', async () => {
    const server = await start();
    server.script({
      text: 'Reading the failing test first.',
      toolCalls: [{ name: 'read_file', input: { path: 'test/ü.test.ts', lines: [1, 20] } }],
      usage: { input: 7, output: 3 },
    });
    const stream = anthropic(server).messages.stream({
      model: 'c',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'go' }],
      tools: anthropicTools,
    });
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    const done = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Reading the failing test first.');
    expect(done.stop_reason).toBe('tool_use');
    expect(done.usage).toMatchObject({ input_tokens: 7, output_tokens: 3 });
    expect(done.content).toMatchObject([
      { type: 'text', text: 'Reading the failing test first.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'test/ü.test.ts', lines: [1, 20] } },
    ]);
    expect(server.unexpected).toEqual([]);
  });
});

describe('fake model server, script control and checks', () => {
  it('answers 500 once the script is exhausted and records it', async () => {
    const server = await start();
    server.script({ text: 'only answer' });
    const client = openai(server);
    const ask = () => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    await ask();
    const err = await ask().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err).toMatchObject({ status: 500 });
    expect(err).toMatchObject({ message: expect.stringContaining('script exhausted') });
    expect(server.unexpected).toEqual([expect.stringContaining('script exhausted')]);
  });

  it('answers with the repeat step forever after the script, across protocols', async () => {
    const server = await start();
    let n = 0;
    server.script({ text: 'first' });
    server.repeat(() => ({ toolCalls: [{ name: 'run_tests', input: { n: ++n } }] }));
    const oa = openai(server);
    const an = anthropic(server);
    const first = await oa.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(first.choices[0]?.message.content).toBe('first');
    for (let i = 1; i <= 3; i++) {
      const answer = await oa.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      const call = answer.choices[0]?.message.tool_calls?.[0];
      expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ n: i });
      expect(answer.choices[0]?.message.content).toBeNull();
    }
    const last = await an.messages.create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(last.content).toMatchObject([{ type: 'tool_use', name: 'run_tests', input: { n: 4 } }]);
    expect(server.requests).toHaveLength(5);
    expect(server.unexpected).toEqual([]);
  });

  it('answers 401 to a request without the key or API version, without using a step', async () => {
    const server = await start();
    server.script({ text: 'kept' });
    const noKey = new OpenAI({
      apiKey: 'test-key',
      baseURL: server.openaiBaseUrl,
      maxRetries: 0,
      defaultHeaders: { Authorization: null },
    });
    const err = await noKey.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err).toMatchObject({ status: 401 });
    const noVersion = new Anthropic({
      apiKey: 'test-key',
      baseURL: server.anthropicBaseUrl,
      maxRetries: 0,
      defaultHeaders: { 'anthropic-version': null },
    });
    const err2 = await noVersion.messages
      .create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(Anthropic.AuthenticationError);
    const bare = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'c', max_tokens: 1, messages: [] }),
    });
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(server.unexpected).toHaveLength(3);
    expect(server.requests).toEqual([]);
    const ok = await openai(server).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(ok.choices[0]?.message.content).toBe('kept');
  });

  it('answers 400 to bodies that are not JSON or lack model, messages or max_tokens', async () => {
    const server = await start();
    const key = (path: string) =>
      path === '/v1/messages' ? { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' } : { authorization: 'Bearer k' };
    const post = (path: string, body: string) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...key(path) }, body });
    const statuses = [
      (await post('/v1/chat/completions', '{not json')).status,
      (await post('/v1/chat/completions', JSON.stringify({ messages: [] }))).status,
      (await post('/v1/chat/completions', JSON.stringify({ model: 'm' }))).status,
      (await post('/v1/messages', JSON.stringify({ model: 'c', messages: [] }))).status,
      (await post('/v1/responses', JSON.stringify({ model: 'm', input: 'hi' }))).status,
    ];
    expect(statuses).toEqual([400, 400, 400, 400, 404]);
    expect(server.unexpected).toEqual([
      expect.stringContaining('not JSON'),
      expect.stringContaining('`model`'),
      expect.stringContaining('`messages`'),
      expect.stringContaining('`max_tokens`'),
      expect.stringContaining('no such endpoint'),
    ]);
    expect(server.requests).toEqual([]);
  });
});
