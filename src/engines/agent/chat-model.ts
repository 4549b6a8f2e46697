// The model port of the `agent` engine: one provider-neutral turn of a tool-use conversation.
// The OpenAI and Anthropic adapters translate it to their wire protocols through the official SDKs.

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's input object. */
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Set when the model's arguments were not a JSON object; the tool is not run and the model is told. */
  inputError?: string;
}

export interface ToolResult {
  id: string;
  content: string;
  isError: boolean;
}

export type ChatMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls: ToolCall[] }
  /** The results of the previous assistant message's tool calls, in order. */
  | { role: 'tool'; results: ToolResult[] };

export interface TokenUsage {
  input: number;
  output: number;
}

export interface ModelReply {
  text: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  /** `length`: the answer was cut at the output limit. */
  stop: 'tool_calls' | 'end' | 'length' | 'other';
}

export interface ModelRequest {
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  maxOutputTokens: number;
  signal: AbortSignal;
}

/** How an adapter reaches its provider (from the app's environment, agent-settings.ts). */
export interface ModelClientOptions {
  model: string;
  apiKey: string;
  baseURL?: string;
  maxRetries?: number;
}

export interface ChatModel {
  readonly provider: string;
  readonly model: string;
  reply(request: ModelRequest): Promise<ModelReply>;
}

/** Parses a tool call's JSON arguments; anything but an object becomes an input error the model is told about. */
export function parseToolInput(raw: unknown): { input: Record<string, unknown>; inputError?: string } {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return { input: raw as Record<string, unknown> };
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { input: {} };
    try {
      return parseToolInput(JSON.parse(raw) as unknown);
    } catch {
      return { input: {}, inputError: 'the arguments were not valid JSON' };
    }
  }
  return { input: {}, inputError: 'the arguments must be a JSON object' };
}
