// The @a2a-js/sdk client against an A2A 1.0 agent, over JSON-RPC, HTTP+JSON (REST) or gRPC.
//
// Usage: node client_scenarios.mjs [--binding JSONRPC|HTTP+JSON|GRPC] BASE_URL [SCENARIO ...]
//
// `--binding` (default JSONRPC) is the transport the SDK's client factory is given and prefers;
// the agent's card must declare it at BASE_URL (gRPC: at `HOST:PORT`, BASE_URL's host, any port).
//
// The agent must speak the interop vocabulary (docs/interop.md): `hello` -> direct message `hi!`;
// `ask` -> input-required `Which city?`, follow-up -> artifact `Sunny in <text>.`; `wait` -> works
// until canceled; `slow <ms>` -> artifact `done`; `fail` -> the agent fails; `parts ...` -> artifact `parts`
// with every part of the message; `chunks <n>` -> artifact `chunks` in n chunks
// `c0`..; anything else -> artifact `echo` with the text.
//
// Prints `PASS name` or `FAIL name: reason` per scenario; exits 1 on any failure. Every assertion
// is on decoded objects: states, ids, texts, error classes, codes (the JSON-RPC error code, or the
// HTTP status over HTTP+JSON, the gRPC status over gRPC) and ErrorInfo reasons.
//
// The script is copied next to target/interop/node_modules by the runner (cargo xtask interop),
// so that Node resolves '@a2a-js/sdk' from there.

import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';

import { Role, TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import {
  ContentTypeNotSupportedError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from '@a2a-js/sdk/errors';

const SCENARIO_TIMEOUT_MS = 20_000;
const HTTP_TIMEOUT_MS = 10_000;
const ARGS = process.argv.slice(2);
export const BINDING = ARGS[0] === '--binding' ? ARGS.splice(0, 2)[1] : 'JSONRPC';
export const REST = BINDING === 'HTTP+JSON';
export const GRPC = BINDING === 'GRPC';
export const BASE = (ARGS[0] ?? 'http://127.0.0.1:7430').replace(/\/+$/, '');
const TRANSPORT_FACTORIES = {
  JSONRPC: JsonRpcTransportFactory,
  'HTTP+JSON': RestTransportFactory,
  GRPC: GrpcTransportFactory,
};

const TERMINAL = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);
const stateName = (s) => TaskState[s] ?? `state ${s}`;

export class Failed extends Error {}

/** A scenario the client cannot express (reported `SKIP`). */
export class Skipped extends Error {}

export function check(cond, what) {
  if (!cond) throw new Failed(what);
}

/** JSON with object keys sorted: JSON objects are unordered, so key order never counts. */
function canonical(value) {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
      : v,
  );
}

export function eq(actual, expected, what) {
  const a = canonical(actual);
  const e = canonical(expected);
  if (a !== e) throw new Failed(`${what}: expected ${e}, got ${a}`);
}

/** fetch with a timeout on every request. */
export const timedFetch = (input, init = {}) =>
  fetch(input, { ...init, signal: init.signal ?? AbortSignal.timeout(HTTP_TIMEOUT_MS) });

/** fetch for streams: only the response head has a deadline. */
export const streamFetch = (input, init = {}) => fetch(input, init);

export function userMessage(text, taskId = '', contextId = '') {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, filename: '', mediaType: '' }],
    extensions: [],
    referenceTaskIds: [],
  };
}

export function sendRequest(message, configuration = {}) {
  return { tenant: '', message, configuration: { acceptedOutputModes: [], ...configuration } };
}

export const texts = (parts) =>
  parts.filter((p) => p.content?.$case === 'text').map((p) => p.content.value);

export const isMessage = (result) => result && 'messageId' in result && !('status' in result);

/** How the scenarios get their client; `client_scenarios_v0_3.mjs` sets its own. */
let makeClient = v1Client;

/** Makes the scenarios use another client (the 0.3 script's). */
export function useClient(make) {
  makeClient = make;
}

async function client(options = {}) {
  return makeClient(options);
}

async function v1Client({ polling = false, streaming = false } = {}) {
  const transports = [new TRANSPORT_FACTORIES[BINDING]({ fetchImpl: streaming ? streamFetch : timedFetch })];
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports,
      preferredTransports: [BINDING],
      clientConfig: { polling },
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: timedFetch }),
    }),
  );
  return factory.createFromUrl(BASE);
}

export async function collect(stream, limit = 100) {
  const events = [];
  for await (const e of stream) {
    events.push(e);
    check(events.length <= limit, `more than ${limit} stream events`);
  }
  return events;
}

async function waitForState(c, id, states, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await c.getTask({ tenant: '', id });
    if (states.has(task.status.state)) return task;
    if (Date.now() > deadline) throw new Failed(`task ${id} still ${stateName(task.status.state)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function completedEchoTask(c, text = 'ping', contextId = '') {
  const result = await c.sendMessage(sendRequest(userMessage(text, '', contextId)));
  check(!isMessage(result), 'expected a task, got a message');
  eq(stateName(result.status.state), 'TASK_STATE_COMPLETED', 'state');
  return result;
}

export async function expectError(cls, promise, what) {
  let result;
  try {
    result = await promise;
  } catch (e) {
    // Errors inside an SSE stream arrive as an Error whose cause is the A2A error.
    const err = e instanceof cls ? e : e?.cause instanceof cls ? e.cause : undefined;
    if (err) return err;
    throw new Failed(`${what}: expected ${cls.name}, got ${e?.name}: ${e?.message}`);
  }
  throw new Failed(`${what}: expected ${cls.name}, got a result: ${JSON.stringify(result)?.slice(0, 300)}`);
}

/**
 * What the client under test keeps of an error beside its class. The 0.3 script clears both for
 * the JS SDK's 0.3 REST client, whose errors are the bare classes, picked by the body's `code`.
 */
export const errorDetails = { httpStatus: true, reason: true };

/** The gRPC status code of each A2A error code (spec 1.0 §10.6; SUMMARY §2). */
const GRPC_STATUS = { [-32001]: 5, [-32005]: 3, [-32602]: 3 }; // NOT_FOUND, INVALID_ARGUMENT
const FAILED_PRECONDITION = 9;

/**
 * The error's code: its JSON-RPC error code, over HTTP+JSON its HTTP status, over gRPC the
 * gRPC status code of that A2A error.
 */
export function expectCode(err, jsonRpcCode, httpStatus) {
  if (REST) {
    if (errorDetails.httpStatus) eq(err.statusCode, httpStatus, 'HTTP status');
  } else if (GRPC) eq(err.status, GRPC_STATUS[jsonRpcCode] ?? FAILED_PRECONDITION, 'gRPC status');
  else eq(err.envelopeCode, jsonRpcCode, 'JSON-RPC error code');
}

/**
 * The reason of the error's ErrorInfo. Over JSON-RPC it is in `data`; over HTTP+JSON the SDK
 * picks the error's class by that reason (an error without a known one is a plain A2AError), and
 * the class carries it.
 */
export function errorInfoReason(err) {
  if (REST) return err.transport === 'rest' ? err.reason : undefined;
  // Over gRPC the SDK picks the class by the reason of the ErrorInfo in `grpc-status-details-bin`
  // (kept on the error) and keeps no reason: the class's name stands for it.
  if (GRPC) {
    if (err.transport !== 'grpc' || !err.statusDetailsBin) return undefined;
    return err.name.replace(/Error$/, '').replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
  }
  const info = Array.isArray(err.data)
    ? err.data.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo')
    : undefined;
  return info?.reason;
}

/**
 * The `A2A-Version` the scenarios that call the SDK's transport directly send (the Client would
 * add its own); the 0.3 script sets `0.3`.
 */
export const protocol = { version: '1.0' };

/**
 * How the agent reads `historyLength` 0: no history (1.0, and 0.3 JSON-RPC), or no limit (0.3
 * over HTTP+JSON, whose proto3 `int32 history_length` cannot tell 0 from "not set": "if 0, the
 * history will be unlimited"). The 0.3 script sets it.
 */
export const historyZero = { meansNone: true };

/** The error's ErrorInfo reason is `reason`, where the client keeps it. */
export function expectReason(err, reason) {
  if (errorDetails.reason) eq(errorInfoReason(err), reason, 'ErrorInfo reason');
}

const RAW = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x01, 0xff]);

export function sampleParts() {
  const part = (content, extra = {}) => ({ content, filename: '', mediaType: '', ...extra });
  return [
    part({ $case: 'text', value: 'parts and more' }),
    part({ $case: 'raw', value: RAW }, { mediaType: 'image/png', filename: 'a.png' }),
    part({ $case: 'url', value: 'https://example.com/a.pdf' }, { mediaType: 'application/pdf', filename: 'a.pdf' }),
    part({ $case: 'data', value: { k: 1, list: [1, 'two', null, true], nested: { x: 1.5 } } }, { mediaType: 'application/json' }),
    part({ $case: 'text', value: 'with metadata' }, { metadata: { note: 'kept', n: 2 } }),
  ];
}

/** A part as comparable JSON: raw bytes as base64, absent metadata omitted. */
export function partJson(p) {
  const value = p.content?.$case === 'raw' ? Buffer.from(p.content.value).toString('base64') : p.content?.value;
  return { kind: p.content?.$case, value, filename: p.filename, mediaType: p.mediaType, metadata: p.metadata ?? null };
}

// --- scenarios ---------------------------------------------------------------------------------

export const scenarios = {
  async card_discovery() {
    const card = await new DefaultAgentCardResolver({ fetchImpl: timedFetch }).resolve(BASE);
    check(card.name !== '', 'card.name is empty');
    check(card.supportedInterfaces.length >= 1, 'no supportedInterfaces');
    // Over JSON-RPC the first interface (the agent's preference); else the one of the binding.
    const first =
      BINDING === 'JSONRPC'
        ? card.supportedInterfaces[0]
        : card.supportedInterfaces.find((i) => i.protocolBinding === BINDING);
    check(first, `no ${BINDING} interface in supportedInterfaces`);
    eq(first.protocolBinding, BINDING, `the ${BINDING} interface's protocolBinding`);
    eq(first.protocolVersion, '1.0', `the ${BINDING} interface's protocolVersion`);
    if (GRPC) {
      // gRPC interfaces are `HOST:PORT`: the agent's host, a port of the agent's choosing.
      const host = new URL(BASE).hostname;
      check(new RegExp(`^${host.replace(/\./g, '\\.')}:\\d+$`).test(first.url), `the GRPC interface's url ${first.url} is not ${host}:PORT`);
    } else {
      eq(first.url.replace(/\/+$/, ''), BASE, `the ${BINDING} interface's url`);
    }
    eq(card.capabilities?.streaming, true, 'capabilities.streaming');
    check(card.defaultInputModes.length > 0, 'defaultInputModes is empty');
    check(card.skills.length >= 1 && card.skills[0].id !== '', 'no skill with an id');
    const c = await client();
    eq(c.protocolVersion, '1.0', 'protocol version the client negotiated');
    eq(c.transport.protocolName, BINDING, 'the transport the factory chose');
  },

  async send_blocking() {
    const c = await client();
    const msg = userMessage('ping');
    const task = await c.sendMessage(sendRequest(msg));
    check(!isMessage(task), 'expected a task, got a message');
    check(task.id !== '', 'task.id is empty');
    check(task.contextId !== '', 'task.contextId is empty');
    eq(stateName(task.status.state), 'TASK_STATE_COMPLETED', 'task state');
    eq(task.artifacts.length, 1, 'number of artifacts');
    eq(task.artifacts[0].artifactId, 'echo', 'artifactId');
    eq(texts(task.artifacts[0].parts), ['ping'], 'artifact text');
    check(task.history.length >= 1, 'history is empty');
    eq(task.history[0].messageId, msg.messageId, 'history[0].messageId');
    eq(task.history[0].role, Role.ROLE_USER, 'history[0].role');
    eq(task.history[0].taskId, task.id, 'history[0].taskId');
  },

  async send_return_immediately() {
    const c = await client({ polling: true });
    const task = await c.sendMessage(sendRequest(userMessage('slow 800'), { returnImmediately: true }));
    check(!isMessage(task), 'expected a task');
    check(
      [TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING].includes(task.status.state),
      `returnImmediately answered with ${stateName(task.status.state)}, expected SUBMITTED or WORKING`,
    );
    const done = await waitForState(c, task.id, TERMINAL);
    eq(stateName(done.status.state), 'TASK_STATE_COMPLETED', 'final state');
    eq(texts(done.artifacts[0].parts), ['done'], 'artifact text');
  },

  async direct_message() {
    const c = await client();
    const result = await c.sendMessage(sendRequest(userMessage('hello there')));
    check(isMessage(result), `expected a direct message, got ${JSON.stringify(result)}`);
    eq(result.role, Role.ROLE_AGENT, 'message.role');
    eq(texts(result.parts), ['hi!'], 'message text');
    check(result.messageId !== '', 'message.messageId is empty');
  },

  async direct_message_stream() {
    const c = await client({ streaming: true });
    const events = await collect(c.sendMessageStream(sendRequest(userMessage('hello stream'))));
    eq(events.length, 1, 'events in a direct-message stream');
    eq(events[0].payload?.$case, 'message', 'event kind');
    eq(texts(events[0].payload.value.parts), ['hi!'], 'message text');
  },

  async stream_artifact_chunks() {
    const c = await client({ streaming: true });
    const events = await collect(c.sendMessageStream(sendRequest(userMessage('chunks 4'))));
    check(events.length >= 6, `only ${events.length} events`);
    eq(events[0].payload?.$case, 'task', 'first event kind');
    const taskId = events[0].payload.value.id;
    check(taskId !== '', 'task id is empty');
    const chunks = events.filter((e) => e.payload?.$case === 'artifactUpdate').map((e) => e.payload.value);
    eq(chunks.length, 4, 'artifact-update events');
    chunks.forEach((chunk, i) => {
      eq(chunk.taskId, taskId, `chunk ${i} taskId`);
      eq(chunk.artifact.artifactId, 'chunks', `chunk ${i} artifactId`);
      eq(texts(chunk.artifact.parts), [`c${i}`], `chunk ${i} text`);
      eq(chunk.append, i > 0, `chunk ${i} append`);
      eq(chunk.lastChunk, i === 3, `chunk ${i} lastChunk`);
    });
    const last = events[events.length - 1];
    eq(last.payload?.$case, 'statusUpdate', 'last event kind');
    eq(stateName(last.payload.value.status.state), 'TASK_STATE_COMPLETED', 'last status');
    eq(last.payload.value.taskId, taskId, 'last status taskId');
    const stored = await (await client()).getTask({ tenant: '', id: taskId });
    eq(stored.artifacts.length, 1, 'stored artifacts');
    eq(texts(stored.artifacts[0].parts).join(''), 'c0c1c2c3', 'stored artifact text');
  },

  async agent_failure() {
    const c = await client();
    const task = await c.sendMessage(sendRequest(userMessage('fail')));
    check(!isMessage(task), 'expected a task');
    eq(stateName(task.status.state), 'TASK_STATE_FAILED', 'state of a failed task');
    const streamer = await client({ streaming: true });
    const events = await collect(streamer.sendMessageStream(sendRequest(userMessage('fail'))));
    eq(events[0].payload?.$case, 'task', 'first event kind');
    const last = events[events.length - 1];
    eq(last.payload?.$case, 'statusUpdate', 'last event kind');
    eq(stateName(last.payload.value.status.state), 'TASK_STATE_FAILED', 'the stream ends failed');
    const stored = await c.getTask({ tenant: '', id: events[0].payload.value.id });
    eq(stateName(stored.status.state), 'TASK_STATE_FAILED', 'stored state');
  },

  async parts_roundtrip() {
    const c = await client();
    const msg = { ...userMessage(''), parts: sampleParts(), metadata: { trace: 'abc' } };
    const task = await c.sendMessage(sendRequest(msg));
    check(!isMessage(task), 'expected a task');
    eq(stateName(task.status.state), 'TASK_STATE_COMPLETED', 'state');
    const want = sampleParts().map(partJson);
    eq(task.artifacts[0].parts.map(partJson), want, 'the parts the agent echoed');
    const stored = await c.getTask({ tenant: '', id: task.id });
    eq(stored.history[0].parts.map(partJson), want, 'the parts kept in history');
    eq(stored.history[0].metadata, { trace: 'abc' }, 'message metadata');
    eq(Buffer.from(stored.history[0].parts[1].content.value).equals(RAW), true, 'raw bytes');
  },

  async get_task_history_length() {
    const c = await client();
    const task = await c.sendMessage(sendRequest(userMessage('ask')));
    eq(stateName(task.status.state), 'TASK_STATE_INPUT_REQUIRED', 'state after ask');
    const second = await c.sendMessage(sendRequest(userMessage('Oslo', task.id, task.contextId)));
    eq(stateName(second.status.state), 'TASK_STATE_COMPLETED', 'state after follow-up');
    const full = await c.getTask({ tenant: '', id: task.id });
    check(full.history.length >= 2, `full history has ${full.history.length} messages`);
    const one = await c.getTask({ tenant: '', id: task.id, historyLength: 1 });
    eq(one.history.length, 1, 'history with historyLength=1');
    eq(one.history[0].messageId, full.history[full.history.length - 1].messageId, 'newest message kept');
    const sent = await c.sendMessage(sendRequest(userMessage('ping'), { historyLength: 0 }));
    const none = await c.getTask({ tenant: '', id: task.id, historyLength: 0 });
    if (historyZero.meansNone) {
      eq(sent.history.length, 0, 'history of a SendMessage with historyLength=0');
      eq(none.history.length, 0, 'history with historyLength=0');
    } else {
      // 0.3 over HTTP+JSON: a proto3 int32 cannot say 0 apart from "not set", no limit.
      check(sent.history.length >= 1, 'history of a SendMessage with historyLength=0 (no limit)');
      eq(none.history.length, full.history.length, 'history with historyLength=0 (no limit)');
    }
    eq(texts(none.artifacts[0].parts), ['Sunny in Oslo.'], 'artifact text');
  },

  async list_tasks_paging() {
    const c = await client();
    const contextId = randomUUID();
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await completedEchoTask(c, `page ${i}`, contextId)).id);
    const base = { tenant: '', contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '' };
    const page1 = await c.listTasks({ ...base, pageSize: 2 });
    eq(page1.tasks.length, 2, 'tasks on page 1');
    eq(page1.totalSize, 3, 'totalSize');
    eq(page1.pageSize, 2, 'pageSize');
    check(page1.nextPageToken !== '', 'page 1 has no nextPageToken');
    const page2 = await c.listTasks({ ...base, pageSize: 2, pageToken: page1.nextPageToken });
    eq(page2.tasks.length, 1, 'tasks on page 2');
    eq(page2.nextPageToken, '', 'nextPageToken on the last page');
    eq([...page1.tasks, ...page2.tasks].map((t) => t.id), [...created].reverse(), 'tasks newest first');
    for (const t of [...page1.tasks, ...page2.tasks]) {
      eq(t.contextId, contextId, 'listed task contextId');
      eq(t.artifacts.length, 0, 'artifacts without includeArtifacts');
    }
    const withArtifacts = await c.listTasks({ ...base, pageSize: 1, includeArtifacts: true });
    eq(texts(withArtifacts.tasks[0].artifacts[0].parts), ['page 2'], 'artifact with includeArtifacts');
  },

  async list_tasks_filter() {
    const c = await client();
    const contextId = randomUUID();
    const done = await completedEchoTask(c, 'filter', contextId);
    const asking = await c.sendMessage(sendRequest(userMessage('ask', '', contextId)));
    eq(stateName(asking.status.state), 'TASK_STATE_INPUT_REQUIRED', 'state after ask');
    const base = { tenant: '', contextId, pageToken: '' };
    const waiting = await c.listTasks({ ...base, status: TaskState.TASK_STATE_INPUT_REQUIRED });
    eq(waiting.tasks.map((t) => t.id), [asking.id], 'tasks with status INPUT_REQUIRED');
    eq(waiting.totalSize, 1, 'totalSize with a status filter');
    const finished = await c.listTasks({ ...base, status: TaskState.TASK_STATE_COMPLETED, historyLength: 0 });
    eq(finished.tasks.map((t) => t.id), [done.id], 'tasks with status COMPLETED');
    eq(finished.tasks[0].history.length, 0, 'history with historyLength=0');
    const everything = await c.listTasks({ ...base, status: TaskState.TASK_STATE_UNSPECIFIED });
    eq(everything.tasks.map((t) => t.id), [asking.id, done.id], 'all tasks of the context, newest first');
    eq(everything.nextPageToken, '', 'nextPageToken on the only page');
  },

  async cancel_task() {
    const c = await client({ polling: true });
    const task = await c.sendMessage(sendRequest(userMessage('wait'), { returnImmediately: true }));
    check(!TERMINAL.has(task.status.state), 'the wait task ended by itself');
    const canceled = await c.cancelTask({ tenant: '', id: task.id });
    eq(canceled.id, task.id, 'canceled task id');
    eq(stateName(canceled.status.state), 'TASK_STATE_CANCELED', 'state returned by CancelTask');
    const again = await c.getTask({ tenant: '', id: task.id });
    eq(stateName(again.status.state), 'TASK_STATE_CANCELED', 'state after cancel');
  },

  async cancel_task_stream() {
    const streamer = await client({ streaming: true });
    const canceller = await client();
    const events = [];
    let canceled;
    for await (const e of streamer.sendMessageStream(sendRequest(userMessage('wait')))) {
      events.push(e);
      check(events.length <= 20, 'more than 20 events');
      const v = e.payload?.value;
      const state = e.payload?.$case === 'task' || e.payload?.$case === 'statusUpdate' ? v.status?.state : undefined;
      if (state === TaskState.TASK_STATE_WORKING && !canceled) {
        const id = e.payload.$case === 'task' ? v.id : v.taskId;
        canceled = await canceller.cancelTask({ tenant: '', id });
      }
    }
    check(canceled, 'the stream never showed TASK_STATE_WORKING');
    eq(stateName(canceled.status.state), 'TASK_STATE_CANCELED', 'state returned by CancelTask');
    const last = events[events.length - 1];
    eq(last.payload?.$case, 'statusUpdate', 'last event kind');
    eq(stateName(last.payload.value.status.state), 'TASK_STATE_CANCELED', 'the stream ends canceled');
  },

  async subscribe_to_task() {
    const poller = await client({ polling: true });
    const streamer = await client({ streaming: true });
    const task = await poller.sendMessage(sendRequest(userMessage('slow 1500'), { returnImmediately: true }));
    const events = await collect(streamer.resubscribeTask({ tenant: '', id: task.id }));
    check(events.length >= 2, `only ${events.length} events`);
    eq(events[0].payload?.$case, 'task', 'first event kind');
    eq(events[0].payload.value.id, task.id, 'first event task id');
    check(!TERMINAL.has(events[0].payload.value.status.state), 'first event already terminal');
    const arts = events.filter((e) => e.payload?.$case === 'artifactUpdate');
    eq(arts.map((e) => texts(e.payload.value.artifact.parts)), [['done']], 'artifact events');
    const last = events[events.length - 1];
    eq(last.payload?.$case, 'statusUpdate', 'last event kind');
    eq(stateName(last.payload.value.status.state), 'TASK_STATE_COMPLETED', 'last status');
  },

  async multi_turn_input_required() {
    const c = await client();
    const task = await c.sendMessage(sendRequest(userMessage('ask')));
    check(!isMessage(task), 'expected a task');
    eq(stateName(task.status.state), 'TASK_STATE_INPUT_REQUIRED', 'state after ask');
    eq(texts(task.status.message.parts), ['Which city?'], 'status message text');
    eq(task.status.message.role, Role.ROLE_AGENT, 'status message role');
    const second = await c.sendMessage(sendRequest(userMessage('Paris', task.id, task.contextId)));
    eq(second.id, task.id, 'follow-up continues the same task');
    eq(second.contextId, task.contextId, 'contextId');
    eq(stateName(second.status.state), 'TASK_STATE_COMPLETED', 'state after follow-up');
    eq(texts(second.artifacts[0].parts), ['Sunny in Paris.'], 'artifact text');
  },

  async multi_turn_stream() {
    const c = await client({ streaming: true });
    const events = await collect(c.sendMessageStream(sendRequest(userMessage('ask'))));
    eq(events[0].payload?.$case, 'task', 'first event kind');
    const { id: taskId, contextId } = events[0].payload.value;
    const last = events[events.length - 1];
    eq(last.payload?.$case, 'statusUpdate', 'last event kind');
    eq(stateName(last.payload.value.status.state), 'TASK_STATE_INPUT_REQUIRED', 'the stream ends at input-required');
    const follow = await collect(c.sendMessageStream(sendRequest(userMessage('Rome', taskId, contextId))));
    for (const e of follow) {
      const v = e.payload.value;
      eq(e.payload.$case === 'task' ? v.id : v.taskId, taskId, `${e.payload.$case} event task id`);
    }
    const arts = follow.filter((e) => e.payload?.$case === 'artifactUpdate');
    eq(arts.map((e) => texts(e.payload.value.artifact.parts)), [['Sunny in Rome.']], 'artifact events');
    const end = follow[follow.length - 1];
    eq(stateName(end.payload.value.status?.state), 'TASK_STATE_COMPLETED', 'final state');
  },

  async subscribe_through_input_required() {
    const sender = await client();
    const streamer = await client({ streaming: true });
    const task = await sender.sendMessage(sendRequest(userMessage('ask')));
    eq(stateName(task.status.state), 'TASK_STATE_INPUT_REQUIRED', 'state after ask');
    const events = [];
    let answered;
    for await (const e of streamer.resubscribeTask({ tenant: '', id: task.id })) {
      events.push(e);
      check(events.length <= 20, 'more than 20 events');
      if (!answered) {
        eq(e.payload?.$case, 'task', 'first event kind');
        eq(stateName(e.payload.value.status.state), 'TASK_STATE_INPUT_REQUIRED', 'first event state');
        // Another client answers while this one watches.
        answered = await sender.sendMessage(sendRequest(userMessage('Lima', task.id, task.contextId)));
      }
    }
    eq(stateName(answered.status.state), 'TASK_STATE_COMPLETED', 'state after the answer');
    const arts = events.filter((e) => e.payload?.$case === 'artifactUpdate');
    eq(arts.map((e) => texts(e.payload.value.artifact.parts)), [['Sunny in Lima.']], 'artifact events the subscriber saw');
    const last = events[events.length - 1];
    eq(last.payload?.$case, 'statusUpdate', 'last event kind');
    eq(stateName(last.payload.value.status.state), 'TASK_STATE_COMPLETED', 'last status');
  },

  async error_task_not_found() {
    const c = await client({ streaming: true });
    const missing = `missing-${randomUUID()}`;
    const e = await expectError(TaskNotFoundError, c.getTask({ tenant: '', id: missing }), 'GetTask');
    expectCode(e, -32001, 404);
    expectReason(e, 'TASK_NOT_FOUND');
    await expectError(TaskNotFoundError, c.cancelTask({ tenant: '', id: missing }), 'CancelTask');
    await expectError(TaskNotFoundError, collect(c.resubscribeTask({ tenant: '', id: missing })), 'SubscribeToTask');
  },

  async error_task_not_cancelable() {
    const c = await client();
    const task = await completedEchoTask(c);
    const e = await expectError(TaskNotCancelableError, c.cancelTask({ tenant: '', id: task.id }), 'CancelTask');
    expectCode(e, -32002, 400);
    expectReason(e, 'TASK_NOT_CANCELABLE');
  },

  async error_subscribe_terminal() {
    const c = await client({ streaming: true });
    const events = await collect(c.sendMessageStream(sendRequest(userMessage('ping'))));
    const taskId = events[0].payload.value.id;
    const e = await expectError(
      UnsupportedOperationError,
      collect(c.resubscribeTask({ tenant: '', id: taskId })),
      'SubscribeToTask on a completed task',
    );
    expectCode(e, -32004, 400);
  },

  async error_send_to_terminal_task() {
    const c = await client();
    const task = await completedEchoTask(c);
    await expectError(
      UnsupportedOperationError,
      c.sendMessage(sendRequest(userMessage('more', task.id, task.contextId))),
      'SendMessage to a completed task',
    );
  },

  async error_content_type() {
    const c = await client();
    const msg = userMessage('ping');
    msg.parts.push({ content: { $case: 'url', value: 'https://example.com/a.mp4' }, filename: '', mediaType: 'video/mp4' });
    const e = await expectError(
      ContentTypeNotSupportedError,
      c.sendMessage(sendRequest(msg)),
      'SendMessage with a video/mp4 part to an agent without that input mode',
    );
    expectCode(e, -32005, 400);
    expectReason(e, 'CONTENT_TYPE_NOT_SUPPORTED');
  },

  async error_push_not_supported() {
    // The Client refuses by itself when the card lacks the capability; its transport asks the agent.
    const c = await client();
    const task = await completedEchoTask(c);
    const e = await expectError(
      PushNotificationNotSupportedError,
      c.transport.createTaskPushNotificationConfig(
        { tenant: '', id: '', taskId: task.id, url: 'http://127.0.0.1:9/webhook', token: '' },
        { serviceParameters: { 'A2A-Version': protocol.version } },
      ),
      'CreateTaskPushNotificationConfig on an agent without push',
    );
    expectCode(e, -32003, 400);
    expectReason(e, 'PUSH_NOTIFICATION_NOT_SUPPORTED');
  },

  async error_extended_card_unsupported() {
    const c = await client();
    const e = await expectError(
      UnsupportedOperationError,
      c.transport.getExtendedAgentCard({ tenant: '' }, { serviceParameters: { 'A2A-Version': protocol.version } }),
      'GetExtendedAgentCard on an agent without one',
    );
    expectCode(e, -32004, 400);
    expectReason(e, 'UNSUPPORTED_OPERATION');
  },

  async error_version_missing() {
    // The SDK's own transport, used directly: the Client would add `A2A-Version: 1.0`.
    const c = await client();
    const e = await expectError(
      VersionNotSupportedError,
      c.transport.sendMessage(sendRequest(userMessage('ping')), { serviceParameters: {} }),
      'SendMessage without A2A-Version',
    );
    expectCode(e, -32009, 400);
    expectReason(e, 'VERSION_NOT_SUPPORTED');
  },

  async error_version_unsupported() {
    const c = await client();
    for (const version of ['2.0', '0.2']) {
      await expectError(
        VersionNotSupportedError,
        c.transport.getTask({ tenant: '', id: 'any' }, { serviceParameters: { 'A2A-Version': version } }),
        `GetTask with A2A-Version: ${version}`,
      );
    }
  },

  async error_invalid_params() {
    const c = await client();
    const base = { tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED };
    const e = await expectError(
      RequestMalformedError,
      c.listTasks({ ...base, pageToken: 'not-a-token-we-issued' }),
      'ListTasks with a forged pageToken',
    );
    expectCode(e, -32602, 400);
    // The spec's range is 1 to 100: a larger page is refused, not cut down.
    const big = await expectError(
      RequestMalformedError,
      c.listTasks({ ...base, pageToken: '', pageSize: 101 }),
      'ListTasks with pageSize 101',
    );
    expectCode(big, -32602, 400);
  },
};

function withTimeout(promise, ms) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Failed(`timed out after ${ms / 1000}s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs the scenarios (or those named on the command line): a line each; exits 1 on a failure. */
export async function runAll(all = scenarios) {
  const wanted = new Set(ARGS.slice(1));
  let failures = 0;
  for (const [name, run] of Object.entries(all)) {
    if (wanted.size && !wanted.has(name)) continue;
    try {
      await withTimeout(run(), SCENARIO_TIMEOUT_MS);
      console.log(`PASS ${name}`);
    } catch (e) {
      if (e instanceof Skipped) {
        console.log(`SKIP ${name}: ${e.message}`);
        continue;
      }
      failures++;
      const reason = e instanceof Failed ? e.message : `${e?.name}: ${e?.message}`;
      console.log(`FAIL ${name}: ${String(reason).replace(/\n/g, ' | ')}`);
    }
  }
  // Exit once stdout is flushed (writes to a pipe may be asynchronous), whatever sockets linger.
  process.stdout.write('', () => process.exit(failures ? 1 : 0));
}

// Run when executed, not when imported by another scenario script.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runAll();
}
