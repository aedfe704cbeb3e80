// The @a2a-js/sdk client through its A2A 0.3 compat transports (`LegacyJsonRpcTransport`,
// `LegacyRestTransport`), against an agent's 0.3 JSON-RPC or HTTP+JSON interface.
//
// Usage: node client_scenarios_v0_3.mjs [--binding JSONRPC|HTTP+JSON] BASE_URL [SCENARIO ...]
//
// The scenarios are those of client_scenarios.mjs (the 1.0 column), run through the client the
// SDK's factory makes, with `legacyCompat` on, from the agent's card reduced to its 0.3
// interface of the binding: `message/send`, `tasks/get`, ... (or `/v1/message:send`,
// `/v1/tasks/{id}`, ...) in the 0.3 wire, converted to and from the SDK's 1.0 types. Where 0.3
// differs, the scenario says what 0.3 means instead:
//
// * card_discovery: the card's 0.3 fields (`url`, `protocolVersion` 0.3.x, `preferredTransport`)
//   name the agent's URL, and the client negotiates 0.3;
// * list_tasks_paging, list_tasks_filter: SKIP (0.3 has no tasks/list);
// * parts_roundtrip: the parts 0.3 can carry (a 0.3 data part has no mediaType; over HTTP+JSON
//   this SDK's 0.3 proto has no file name or part metadata either);
// * get_task_history_length: over HTTP+JSON, historyLength 0 is the 0.3 proto's "not set", no limit;
// * error_push_not_supported, error_extended_card_unsupported: the transport with A2A-Version 0.3;
// * over HTTP+JSON the SDK's 0.3 errors keep neither the HTTP status nor the ErrorInfo reason: the
//   class (picked by the body's JSON-RPC `code`) is what is asserted;
// * error_version_missing: a 0.3 call without A2A-Version is taken as 0.3 and answered;
// * error_version_unsupported: `A2A-Version: 2.0` on a 0.3 method: VersionNotSupported (-32009);
// * error_invalid_params: tasks/get with a negative historyLength (0.3 has no ListTasks).
//
// Prints `PASS name`, `FAIL name: reason` or `SKIP name: reason` per scenario.

import {
  BASE,
  BINDING,
  Skipped,
  check,
  eq,
  errorDetails,
  expectCode,
  expectError,
  historyZero,
  isMessage,
  partJson,
  protocol,
  runAll,
  sampleParts,
  scenarios,
  sendRequest,
  texts,
  timedFetch,
  streamFetch,
  useClient,
  userMessage,
} from './client_scenarios.mjs';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { RequestMalformedError, VersionNotSupportedError } from '@a2a-js/sdk/errors';

const FACTORIES = { JSONRPC: JsonRpcTransportFactory, 'HTTP+JSON': RestTransportFactory };

/** The agent's card with only its 0.3 interfaces of BINDING. */
async function legacyCard() {
  const card = await new DefaultAgentCardResolver({ fetchImpl: timedFetch }).resolve(BASE);
  const legacy = card.supportedInterfaces.filter(
    (i) => i.protocolBinding === BINDING && i.protocolVersion.startsWith('0.3'),
  );
  check(legacy.length > 0, `the card lists no ${BINDING} 0.3 interface`);
  return { ...card, supportedInterfaces: legacy };
}

async function legacyClient({ polling = false, streaming = false } = {}) {
  const transports = [
    new FACTORIES[BINDING]({
      fetchImpl: streaming ? streamFetch : timedFetch,
      legacyCompat: { enabled: true },
    }),
  ];
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports,
      preferredTransports: [BINDING],
      clientConfig: { polling },
    }),
  );
  const c = await factory.createFromAgentCard(await legacyCard());
  check(c.protocolVersion.startsWith('0.3'), `the client negotiated ${c.protocolVersion}, not 0.3`);
  return c;
}

useClient(legacyClient);
// The scenarios that call the transport directly say 0.3 (a 0.3 route under /v1 with a 1.x
// A2A-Version is the 1.0 route of tenant `v1`).
protocol.version = '0.3';

if (BINDING === 'HTTP+JSON') {
  // The SDK's 0.3 REST client throws the bare error classes, picked by the body's `code`: it
  // keeps neither the HTTP status nor the ErrorInfo reason.
  errorDetails.httpStatus = false;
  errorDetails.reason = false;
  // The 0.3 proto's `int32 history_length`: "if 0, the history will be unlimited".
  historyZero.meansNone = false;
}

/**
 * 0.3 parts: the 1.0 sample parts but for the data part's mediaType. Over HTTP+JSON also without
 * file names and part metadata: this SDK's 0.3 proto (as the spec's 0.3 `a2a.proto`) has no field
 * for them, so its REST client cannot send them.
 */
function legacyParts() {
  return sampleParts().map((p) => {
    const part = p.content.$case === 'data' ? { ...p, mediaType: '' } : { ...p };
    if (BINDING === 'HTTP+JSON') {
      part.filename = '';
      delete part.metadata;
    }
    return part;
  });
}

const noList = async () => {
  throw new Skipped('0.3 has no tasks/list');
};

await runAll({
  ...scenarios,

  async card_discovery() {
    const raw = await (await timedFetch(`${BASE}/.well-known/agent-card.json`)).json();
    eq((raw.url ?? '').replace(/\/+$/, ''), BASE, 'the 0.3 field url');
    check(String(raw.protocolVersion).startsWith('0.3'), `protocolVersion ${raw.protocolVersion} is not 0.3.x`);
    eq(raw.preferredTransport, 'JSONRPC', 'preferredTransport');
    const card = await legacyCard();
    eq(card.supportedInterfaces[0].url.replace(/\/+$/, ''), BASE, 'the 0.3 interface URL');
    eq(card.capabilities?.streaming, true, 'capabilities.streaming');
    const c = await legacyClient();
    eq(c.protocolVersion.slice(0, 3), '0.3', 'protocol version the client negotiated');
  },

  async parts_roundtrip() {
    const c = await legacyClient();
    const msg = { ...userMessage(''), parts: legacyParts(), metadata: { trace: 'abc' } };
    const task = await c.sendMessage(sendRequest(msg));
    check(!isMessage(task), 'expected a task');
    const want = legacyParts().map(partJson);
    eq(task.artifacts[0].parts.map(partJson), want, 'the parts the agent echoed');
    const stored = await c.getTask({ tenant: '', id: task.id });
    eq(stored.history[0].parts.map(partJson), want, 'the parts kept in history');
    eq(stored.history[0].metadata, { trace: 'abc' }, 'message metadata');
  },

  list_tasks_paging: noList,
  list_tasks_filter: noList,

  async error_version_missing() {
    const c = await legacyClient();
    const task = await c.transport.sendMessage(sendRequest(userMessage('no header')), {
      serviceParameters: {},
    });
    check(!isMessage(task), 'expected a task');
    eq(texts(task.artifacts[0].parts), ['no header'], 'artifact text');
  },

  async error_version_unsupported() {
    const c = await legacyClient();
    const e = await expectError(
      VersionNotSupportedError,
      c.transport.getTask({ tenant: '', id: 'any' }, { serviceParameters: { 'A2A-Version': '2.0' } }),
      'tasks/get with A2A-Version: 2.0',
    );
    expectCode(e, -32009, 400);
  },

  async error_invalid_params() {
    const c = await legacyClient();
    const e = await expectError(
      RequestMalformedError,
      c.getTask({ tenant: '', id: 'any', historyLength: -1 }),
      'tasks/get with historyLength -1',
    );
    expectCode(e, -32602, 400);
  },
});
