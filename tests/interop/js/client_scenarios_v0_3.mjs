// The @a2a-js/sdk client through its A2A 0.3 compat transport (`LegacyJsonRpcTransport`), against
// an agent's 0.3 JSON-RPC interface.
//
// Usage: node client_scenarios_v0_3.mjs BASE_URL [SCENARIO ...]
//
// The scenarios are those of client_scenarios.mjs (the 1.0 column), run through the client the
// SDK's factory makes, with `legacyCompat` on, from the agent's card reduced to its JSON-RPC 0.3
// interface: `message/send`, `tasks/get`, ... in the 0.3 wire, converted to and from the SDK's
// 1.0 types. Where 0.3 differs, the scenario says what 0.3 means instead:
//
// * card_discovery: the card's 0.3 fields (`url`, `protocolVersion` 0.3.x, `preferredTransport`)
//   name the agent's URL, and the client negotiates 0.3;
// * list_tasks_paging, list_tasks_filter: SKIP (0.3 JSON-RPC has no tasks/list);
// * parts_roundtrip: the parts 0.3 can carry (a 0.3 data part has no mediaType);
// * error_version_missing: a 0.3 call without A2A-Version is taken as 0.3 and answered;
// * error_version_unsupported: `A2A-Version: 2.0` on a 0.3 method: VersionNotSupported (-32009);
// * error_invalid_params: tasks/get with a negative historyLength (0.3 has no ListTasks).
//
// Prints `PASS name`, `FAIL name: reason` or `SKIP name: reason` per scenario.

import {
  BASE,
  Skipped,
  check,
  eq,
  expectError,
  isMessage,
  partJson,
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
} from '@a2a-js/sdk/client';
import { RequestMalformedError, VersionNotSupportedError } from '@a2a-js/sdk/errors';

/** The agent's card with only its JSON-RPC 0.3 interfaces. */
async function legacyCard() {
  const card = await new DefaultAgentCardResolver({ fetchImpl: timedFetch }).resolve(BASE);
  const legacy = card.supportedInterfaces.filter(
    (i) => i.protocolBinding === 'JSONRPC' && i.protocolVersion.startsWith('0.3'),
  );
  check(legacy.length > 0, 'the card lists no JSON-RPC 0.3 interface');
  return { ...card, supportedInterfaces: legacy };
}

async function legacyClient({ polling = false, streaming = false } = {}) {
  const transports = [
    new JsonRpcTransportFactory({
      fetchImpl: streaming ? streamFetch : timedFetch,
      legacyCompat: { enabled: true },
    }),
  ];
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports,
      clientConfig: { polling },
    }),
  );
  const c = await factory.createFromAgentCard(await legacyCard());
  check(c.protocolVersion.startsWith('0.3'), `the client negotiated ${c.protocolVersion}, not 0.3`);
  return c;
}

useClient(legacyClient);

/** 0.3 parts: the 1.0 sample parts but for the data part's mediaType. */
function legacyParts() {
  return sampleParts().map((p) => (p.content.$case === 'data' ? { ...p, mediaType: '' } : p));
}

const noList = async () => {
  throw new Skipped('0.3 JSON-RPC has no tasks/list (the SDK transport throws Method not found)');
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
    eq(e.envelopeCode, -32009, 'JSON-RPC error code');
  },

  async error_invalid_params() {
    const c = await legacyClient();
    const e = await expectError(
      RequestMalformedError,
      c.getTask({ tenant: '', id: 'any', historyLength: -1 }),
      'tasks/get with historyLength -1',
    );
    eq(e.envelopeCode, -32602, 'JSON-RPC error code');
  },
});
