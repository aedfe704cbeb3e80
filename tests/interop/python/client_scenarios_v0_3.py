"""The a2a-sdk (Python) client through its A2A 0.3 compat transports, against an agent's 0.3
JSON-RPC or HTTP+JSON interface.

Usage: python client_scenarios_v0_3.py [--binding JSONRPC|HTTP+JSON] BASE_URL [SCENARIO ...]

The scenarios are those of client_scenarios.py (the 1.0 column), run through the client the
SDK's factory makes from the agent's card reduced to its 0.3 interface of the binding: the SDK's
`CompatJsonRpcTransport` (`message/send`, `tasks/get`, ...) or `CompatRestTransport`
(`/v1/message:send`, `/v1/tasks/{id}`, ...), which speak 0.3 with `A2A-Version: 0.3` and
convert to and from the SDK's 1.0 types. Where 0.3 differs, the scenario says what 0.3 means
instead:

* `card_discovery`: the card lists a 0.3 interface of the binding at the agent's URL, the 0.3
  fields (`url`, `protocolVersion` 0.3.x, `preferredTransport`) name the agent's URL, and the
  factory picks the compat transport for it.
* `list_tasks_paging`, `list_tasks_filter`: SKIP (0.3 has no tasks/list).
* `error_version_missing`: a 0.3 call without A2A-Version is taken as 0.3 and answered.
* `error_version_unsupported`: the compat transport with `A2A-Version: 2.0`: VersionNotSupported.
* `error_extended_card_unsupported`: `agent/getAuthenticatedExtendedCard` (over HTTP+JSON
  `GET /v1/card`): UnsupportedOperation.
* `parts_roundtrip`: the parts 0.3 can carry (a 0.3 data part has no `mediaType`).
* `get_task_history_length`: over HTTP+JSON, `historyLength` 0 is the 0.3 proto's "not set", no
  limit.
* `error_invalid_params`: `tasks/get` with a negative `historyLength` (0.3 has no ListTasks).

Prints one line per scenario, `PASS name`, `FAIL name: reason` or `SKIP name: reason`.
"""

import asyncio
import sys

import httpx

import client_scenarios as base
from a2a.client import ClientConfig
from a2a.client.card_resolver import A2ACardResolver
from a2a.client.client_factory import ClientFactory
from a2a.compat.v0_3.jsonrpc_transport import CompatJsonRpcTransport
from a2a.compat.v0_3.rest_transport import CompatRestTransport
from a2a.types import GetExtendedAgentCardRequest, GetTaskRequest, SendMessageRequest
from a2a.utils.errors import (
    InvalidParamsError,
    UnsupportedOperationError,
    VersionNotSupportedError,
)

BASE = base.BASE
Failed = base.Failed
check = base.check
eq = base.eq


Skipped = base.Skipped
BINDING = base.BINDING
# The SDK's 0.3 transport class for each binding.
TRANSPORTS = {'JSONRPC': CompatJsonRpcTransport, 'HTTP+JSON': CompatRestTransport}


async def legacy_card():
    """The agent's card with only its 0.3 interfaces of BINDING."""
    async with httpx.AsyncClient(timeout=base.HTTP_TIMEOUT) as http:
        card = await A2ACardResolver(http, BASE).get_agent_card()
    legacy = [i for i in card.supported_interfaces
              if i.protocol_binding == BINDING and i.protocol_version.startswith('0.3')]
    check(legacy != [], f'the card lists no {BINDING} 0.3 interface')
    del card.supported_interfaces[:]
    card.supported_interfaces.extend(legacy)
    return card


async def client(streaming: bool = False, polling: bool = False, event_hooks=None):
    """The SDK client the factory makes from the 0.3 card: the compat transport."""
    card = await legacy_card()
    config = ClientConfig(
        streaming=streaming,
        polling=polling,
        httpx_client=httpx.AsyncClient(timeout=base.HTTP_TIMEOUT, event_hooks=event_hooks or {}),
        supported_protocol_bindings=[BINDING],
    )
    c = ClientFactory(config).create(card)
    check(isinstance(c._transport, TRANSPORTS[BINDING]),
          f'the factory chose {type(c._transport).__name__}, not the 0.3 compat transport')
    return c


# The 1.0 scenarios call `client()`; through this module they get the 0.3 one.
base.client = client
# The 0.3 proto's `int32 history_length`: "if 0, the history will be unlimited".
base.HISTORY_ZERO_MEANS_NONE = BINDING != 'HTTP+JSON'

sample_parts_v1 = base.sample_parts


def sample_parts():
    """The 1.0 sample parts but for the data part's `mediaType`, which 0.3 cannot carry."""
    parts = sample_parts_v1()
    for part in parts:
        if part.WhichOneof('content') == 'data':
            part.ClearField('media_type')
    return parts


base.sample_parts = sample_parts


async def card_discovery():
    async with httpx.AsyncClient(timeout=base.HTTP_TIMEOUT) as http:
        raw = (await http.get(f'{BASE}/.well-known/agent-card.json')).json()
    eq(raw.get('url', '').rstrip('/'), BASE, 'the 0.3 field url')
    check(str(raw.get('protocolVersion', '')).startswith('0.3'),
          f"protocolVersion {raw.get('protocolVersion')!r} is not 0.3.x")
    eq(raw.get('preferredTransport'), 'JSONRPC', 'preferredTransport')
    card = await legacy_card()
    check(card.supported_interfaces[0].url.rstrip('/') == BASE,
          f'the 0.3 interface is at {card.supported_interfaces[0].url!r}, not {BASE}')
    eq(card.capabilities.streaming, True, 'capabilities.streaming')
    c = await client()
    try:
        eq(c._transport.url.rstrip('/'), BASE, 'transport URL chosen from the card')
    finally:
        await c.close()


async def no_list():
    raise Skipped('0.3 has no tasks/list (the SDK transports raise NotImplementedError)')


async def list_tasks_paging():
    await no_list()


async def list_tasks_filter():
    await no_list()


def with_version(version: str | None):
    """An httpx request hook that sends this A2A-Version (or none) whatever the transport set."""
    async def hook(request: httpx.Request):
        request.headers.pop('A2A-Version', None)
        if version is not None:
            request.headers['A2A-Version'] = version
    return {'request': [hook]}


async def error_version_missing():
    # 0.3 clients may send no A2A-Version: the call is taken as 0.3 and answered.
    c = await client(event_hooks=with_version(None))
    try:
        task = await base.completed_echo_task(c, 'no header')
        eq(base.texts(task.artifacts[0].parts), ['no header'], 'artifact text')
    finally:
        await c.close()


async def error_version_unsupported():
    c = await client(event_hooks=with_version('2.0'))
    try:
        await base.expect_error(VersionNotSupportedError,
                                c.get_task(GetTaskRequest(id='any')),
                                'tasks/get with A2A-Version: 2.0')
        await base.expect_error(VersionNotSupportedError,
                                c.send_message(SendMessageRequest(message=base.user_message('x'))).__anext__(),
                                'message/send with A2A-Version: 2.0')
    finally:
        await c.close()


async def error_extended_card_unsupported():
    # The SDK only asks when the card claims an extended card; this one does not.
    card = await legacy_card()
    card.capabilities.extended_agent_card = True
    async with httpx.AsyncClient(timeout=base.HTTP_TIMEOUT) as http:
        t = TRANSPORTS[BINDING](http, card, card.supported_interfaces[0].url, is_shared_httpx=True)
        await base.expect_error(UnsupportedOperationError,
                                t.get_extended_agent_card(GetExtendedAgentCardRequest()),
                                'agent/getAuthenticatedExtendedCard on an agent without one')


async def error_invalid_params():
    c = await client()
    try:
        await base.expect_error(InvalidParamsError,
                                c.get_task(GetTaskRequest(id='any', history_length=-1)),
                                'tasks/get with historyLength -1')
    finally:
        await c.close()


OVERRIDES = {f.__name__: f for f in [
    error_invalid_params,
    card_discovery,
    list_tasks_paging,
    list_tasks_filter,
    error_version_missing,
    error_version_unsupported,
    error_extended_card_unsupported,
]}


if __name__ == '__main__':
    scenarios = [OVERRIDES.get(s.__name__, s) for s in base.SCENARIOS]
    sys.exit(asyncio.run(base.main(scenarios)))
