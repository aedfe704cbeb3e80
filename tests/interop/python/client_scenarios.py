"""The a2a-sdk (Python) client against an A2A 1.0 agent, over JSON-RPC, HTTP+JSON (REST) or gRPC.

Usage: python client_scenarios.py [--binding JSONRPC|HTTP+JSON|GRPC] BASE_URL [SCENARIO ...]

`--binding` (default JSONRPC) is the card's interface the SDK's client factory is told to use;
the agent must declare it at BASE_URL (gRPC: at `HOST:PORT`, BASE_URL's host, any port).

The agent must speak the interop vocabulary (see docs/interop.md): `hello` -> direct message
`hi!`; `ask` -> input-required `Which city?`, follow-up -> artifact `Sunny in <text>.`;
`wait` -> works until canceled; `slow <ms>` -> artifact `done` after <ms>; `fail` -> the agent fails;
`parts ...` -> artifact `parts` with every part of the message; `chunks <n>` ->
artifact `chunks` in n chunks `c0`..; anything else -> artifact `echo` with the text.

Prints one line per scenario, `PASS name`, `FAIL name: reason` or `SKIP name: reason`, and exits
1 on any failure.
Every assertion is on decoded objects: states, ids, texts, error classes and, over HTTP+JSON, the
HTTP status of the error, over gRPC its gRPC status code.
"""

import asyncio
import sys
import traceback
import uuid

import grpc
import httpx

from google.protobuf import json_format, struct_pb2

from a2a.client import ClientConfig, create_client
from a2a.client.card_resolver import A2ACardResolver
from a2a.client.transports.grpc import GrpcTransport
from a2a.client.transports.jsonrpc import JsonRpcTransport
from a2a.client.transports.rest import RestTransport
from a2a.types import (
    CancelTaskRequest,
    GetExtendedAgentCardRequest,
    GetTaskRequest,
    ListTasksRequest,
    Message,
    Part,
    Role,
    SendMessageConfiguration,
    SendMessageRequest,
    SubscribeToTaskRequest,
    TaskPushNotificationConfig,
    TaskState,
)
from a2a.utils.errors import (
    ContentTypeNotSupportedError,
    InvalidParamsError,
    PushNotificationNotSupportedError,
    TaskNotCancelableError,
    TaskNotFoundError,
    UnsupportedOperationError,
    VersionNotSupportedError,
)


SCENARIO_TIMEOUT = 20.0
HTTP_TIMEOUT = 10.0

ARGS = sys.argv[1:]
BINDING = 'JSONRPC'
if ARGS[:1] == ['--binding']:
    BINDING, ARGS = ARGS[1], ARGS[2:]
BASE = ARGS[0].rstrip('/') if ARGS else 'http://127.0.0.1:7430'
WANTED = set(ARGS[1:])
# The SDK's transport class for each binding, used where a scenario needs the bare transport.
TRANSPORTS = {'JSONRPC': JsonRpcTransport, 'HTTP+JSON': RestTransport, 'GRPC': GrpcTransport}
REST = BINDING == 'HTTP+JSON'
GRPC = BINDING == 'GRPC'

# How the agent reads `historyLength` 0: no history (1.0, and 0.3 JSON-RPC), or no limit (0.3 over
# HTTP+JSON, whose proto3 `int32 history_length` cannot tell 0 from "not set": "if 0, the history
# will be unlimited"). client_scenarios_v0_3.py sets it.
HISTORY_ZERO_MEANS_NONE = True

S = TaskState
TERMINAL = {S.TASK_STATE_COMPLETED, S.TASK_STATE_FAILED, S.TASK_STATE_CANCELED, S.TASK_STATE_REJECTED}
INTERRUPTED = {S.TASK_STATE_INPUT_REQUIRED, S.TASK_STATE_AUTH_REQUIRED}


def state_name(state: int) -> str:
    return TaskState.Name(state)


class Failed(Exception):
    pass


class Skipped(Exception):
    """A scenario the client cannot express (reported `SKIP`)."""


def check(cond: bool, what: str) -> None:
    if not cond:
        raise Failed(what)


def eq(actual, expected, what: str) -> None:
    if actual != expected:
        raise Failed(f'{what}: expected {expected!r}, got {actual!r}')


def user_message(text: str, task_id: str | None = None, context_id: str | None = None) -> Message:
    return Message(
        message_id=str(uuid.uuid4()),
        role=Role.ROLE_USER,
        parts=[Part(text=text)],
        task_id=task_id,
        context_id=context_id,
    )


def texts(parts) -> list[str]:
    return [p.text for p in parts if p.WhichOneof('content') == 'text']


class VersionMetadata(grpc.aio.UnaryUnaryClientInterceptor, grpc.aio.UnaryStreamClientInterceptor):
    """Sends this `a2a-version` metadata (or none) on every gRPC call, whatever the transport set."""

    def __init__(self, version: str | None):
        self.version = version

    def details(self, details):
        metadata = grpc.aio.Metadata(*[(k, v) for k, v in (details.metadata or ()) if k != 'a2a-version'])
        if self.version is not None:
            metadata.add('a2a-version', self.version)
        return details._replace(metadata=metadata)

    async def intercept_unary_unary(self, continuation, details, request):
        return await continuation(self.details(details), request)

    async def intercept_unary_stream(self, continuation, details, request):
        return await continuation(self.details(details), request)


def grpc_channel(target: str, interceptors=None):
    """A plaintext channel to the agent's `HOST:PORT`."""
    return grpc.aio.insecure_channel(target, interceptors=interceptors)


async def client(streaming: bool = False, polling: bool = False):
    config = ClientConfig(
        streaming=streaming,
        polling=polling,
        httpx_client=httpx.AsyncClient(timeout=HTTP_TIMEOUT),
        supported_protocol_bindings=[BINDING],
        grpc_channel_factory=grpc_channel,
    )
    return await create_client(BASE, client_config=config)


async def send_one(c, message: Message, **configuration):
    """Non-streaming send: the one StreamResponse (task or message) the client yields."""
    req = SendMessageRequest(message=message)
    if configuration:
        req.configuration.CopyFrom(SendMessageConfiguration(**configuration))
    events = [e async for e in c.send_message(req)]
    eq(len(events), 1, 'number of responses to a non-streaming send')
    return events[0]


async def collect(stream, limit: int = 100):
    events = []
    async for event in stream:
        events.append(event)
        check(len(events) <= limit, f'more than {limit} stream events')
    return events


async def wait_for_state(c, task_id: str, states: set, timeout: float = 10.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        task = await c.get_task(GetTaskRequest(id=task_id))
        if task.status.state in states:
            return task
        if asyncio.get_running_loop().time() > deadline:
            raise Failed(f'task {task_id} still {state_name(task.status.state)} after {timeout}s')
        await asyncio.sleep(0.1)


async def completed_echo_task(c, text: str = 'ping', context_id: str | None = None):
    resp = await send_one(c, user_message(text, context_id=context_id))
    check(resp.HasField('task'), f'expected a task, got {resp}')
    eq(state_name(resp.task.status.state), 'TASK_STATE_COMPLETED', 'state')
    return resp.task


# --- scenarios -----------------------------------------------------------------------------


def interface_of(card):
    """The card's interface of BINDING; over JSON-RPC, the first one (the agent's preference)."""
    if BINDING == 'JSONRPC':
        check(len(card.supported_interfaces) >= 1, 'no supportedInterfaces')
        first = card.supported_interfaces[0]
        eq(first.protocol_binding, 'JSONRPC', 'supportedInterfaces[0].protocolBinding')
        return first
    found = [i for i in card.supported_interfaces if i.protocol_binding == BINDING]
    check(found, f'no {BINDING} interface in supportedInterfaces')
    return found[0]


async def card_discovery():
    async with httpx.AsyncClient(timeout=HTTP_TIMEOUT) as http:
        card = await A2ACardResolver(http, BASE).get_agent_card()
    check(card.name != '', 'card.name is empty')
    chosen = interface_of(card)
    eq(chosen.protocol_version, '1.0', f'the {BINDING} interface\'s protocolVersion')
    if GRPC:
        # gRPC interfaces are `HOST:PORT`: the agent's host, a port of the agent's choosing.
        host = BASE.split('://', 1)[1].rsplit(':', 1)[0]
        name, _, port = chosen.url.rpartition(':')
        check(name == host and port.isdigit(), f'the GRPC interface\'s url {chosen.url!r} is not {host}:PORT')
    else:
        check(chosen.url.rstrip('/') == BASE, f'the {BINDING} interface\'s url {chosen.url!r} is not {BASE}')
    eq(card.capabilities.streaming, True, 'capabilities.streaming')
    check(list(card.default_input_modes) != [], 'defaultInputModes is empty')
    check(len(card.skills) >= 1 and card.skills[0].id != '', 'no skill with an id')
    # The client the factory makes from that card talks to the same URL, over that binding.
    c = await client()
    try:
        eq(type(c._transport).__name__, TRANSPORTS[BINDING].__name__, 'transport chosen from the card')
        if not GRPC:  # a gRPC channel does not tell its target
            eq(c._transport.url.rstrip('/'), BASE, 'transport URL chosen from the card')
    finally:
        await c.close()


async def send_blocking():
    c = await client()
    try:
        msg = user_message('ping')
        resp = await send_one(c, msg)
        check(resp.HasField('task'), f'expected a task, got {resp}')
        task = resp.task
        check(task.id != '', 'task.id is empty')
        check(task.context_id != '', 'task.contextId is empty')
        eq(state_name(task.status.state), 'TASK_STATE_COMPLETED', 'task state')
        eq(len(task.artifacts), 1, 'number of artifacts')
        eq(task.artifacts[0].artifact_id, 'echo', 'artifactId')
        eq(texts(task.artifacts[0].parts), ['ping'], 'artifact text')
        check(len(task.history) >= 1, 'history is empty')
        eq(task.history[0].message_id, msg.message_id, 'history[0].messageId')
        eq(task.history[0].role, Role.ROLE_USER, 'history[0].role')
        eq(task.history[0].task_id, task.id, 'history[0].taskId')
    finally:
        await c.close()


async def send_return_immediately():
    c = await client(polling=True)
    try:
        resp = await send_one(c, user_message('slow 800'), return_immediately=True)
        check(resp.HasField('task'), f'expected a task, got {resp}')
        state = resp.task.status.state
        check(state in {S.TASK_STATE_SUBMITTED, S.TASK_STATE_WORKING},
              f'returnImmediately answered with state {state_name(state)}, expected SUBMITTED or WORKING')
        task = await wait_for_state(c, resp.task.id, TERMINAL)
        eq(state_name(task.status.state), 'TASK_STATE_COMPLETED', 'final state')
        eq(texts(task.artifacts[0].parts), ['done'], 'artifact text')
    finally:
        await c.close()


async def direct_message():
    c = await client()
    try:
        resp = await send_one(c, user_message('hello there'))
        check(resp.HasField('message'), f'expected a direct message, got {resp}')
        check(not resp.HasField('task'), 'a task came with the message')
        eq(resp.message.role, Role.ROLE_AGENT, 'message.role')
        eq(texts(resp.message.parts), ['hi!'], 'message text')
        check(resp.message.message_id != '', 'message.messageId is empty')
    finally:
        await c.close()


async def direct_message_stream():
    c = await client(streaming=True)
    try:
        req = SendMessageRequest(message=user_message('hello stream'))
        events = await collect(c.send_message(req))
        eq(len(events), 1, 'events in a direct-message stream')
        check(events[0].HasField('message'), f'expected a message event, got {events[0]}')
        eq(texts(events[0].message.parts), ['hi!'], 'message text')
    finally:
        await c.close()


async def stream_artifact_chunks():
    c = await client(streaming=True)
    try:
        req = SendMessageRequest(message=user_message('chunks 4'))
        events = await collect(c.send_message(req))
        check(len(events) >= 6, f'only {len(events)} events')
        check(events[0].HasField('task'), f'first event is not a task: {events[0]}')
        task_id = events[0].task.id
        check(task_id != '', 'task id is empty')
        chunks = [e.artifact_update for e in events if e.HasField('artifact_update')]
        eq(len(chunks), 4, 'artifact-update events')
        for i, chunk in enumerate(chunks):
            eq(chunk.task_id, task_id, f'chunk {i} taskId')
            eq(chunk.artifact.artifact_id, 'chunks', f'chunk {i} artifactId')
            eq(texts(chunk.artifact.parts), [f'c{i}'], f'chunk {i} text')
            eq(chunk.append, i > 0, f'chunk {i} append')
            eq(chunk.last_chunk, i == 3, f'chunk {i} lastChunk')
        last = events[-1]
        check(last.HasField('status_update'), f'last event is not a status update: {last}')
        eq(state_name(last.status_update.status.state), 'TASK_STATE_COMPLETED', 'last status')
        eq(last.status_update.task_id, task_id, 'last status taskId')
        # The task as stored holds the whole artifact.
        task = await c.get_task(GetTaskRequest(id=task_id))
        eq(len(task.artifacts), 1, 'stored artifacts')
        eq(''.join(texts(task.artifacts[0].parts)), 'c0c1c2c3', 'stored artifact text')
    finally:
        await c.close()


async def agent_failure():
    c = await client()
    streamer = await client(streaming=True)
    try:
        resp = await send_one(c, user_message('fail'))
        check(resp.HasField('task'), f'expected a task, got {resp}')
        eq(state_name(resp.task.status.state), 'TASK_STATE_FAILED', 'state of a failed task')
        events = await collect(streamer.send_message(SendMessageRequest(message=user_message('fail'))))
        check(events[0].HasField('task'), 'first event is not a task')
        last = events[-1]
        check(last.HasField('status_update'), f'last event is not a status update: {last}')
        eq(state_name(last.status_update.status.state), 'TASK_STATE_FAILED', 'the stream ends failed')
        task = await c.get_task(GetTaskRequest(id=events[0].task.id))
        eq(state_name(task.status.state), 'TASK_STATE_FAILED', 'stored state')
    finally:
        await c.close()
        await streamer.close()


def sample_parts() -> list[Part]:
    data = struct_pb2.Value()
    json_format.ParseDict({'k': 1, 'list': [1, 'two', None, True], 'nested': {'x': 1.5}}, data)
    metadata = struct_pb2.Struct()
    metadata.update({'note': 'kept', 'n': 2})
    return [
        Part(text='parts and more'),
        Part(raw=b'\x89PNG\r\n\x1a\n\x00\x01\xff', media_type='image/png', filename='a.png'),
        Part(url='https://example.com/a.pdf', media_type='application/pdf', filename='a.pdf'),
        Part(data=data, media_type='application/json'),
        Part(text='with metadata', metadata=metadata),
    ]


async def parts_roundtrip():
    c = await client()
    try:
        msg = user_message('')
        del msg.parts[:]
        msg.parts.extend(sample_parts())
        msg.metadata.update({'trace': 'abc'})
        resp = await send_one(c, msg)
        check(resp.HasField('task'), f'expected a task, got {resp}')
        task = resp.task
        eq(state_name(task.status.state), 'TASK_STATE_COMPLETED', 'state')
        want = [json_format.MessageToDict(p) for p in sample_parts()]
        eq([json_format.MessageToDict(p) for p in task.artifacts[0].parts], want,
           'the parts the agent echoed')
        stored = await c.get_task(GetTaskRequest(id=task.id))
        eq([json_format.MessageToDict(p) for p in stored.history[0].parts], want,
           'the parts kept in history')
        eq(json_format.MessageToDict(stored.history[0].metadata), {'trace': 'abc'}, 'message metadata')
        eq(stored.history[0].parts[1].raw, b'\x89PNG\r\n\x1a\n\x00\x01\xff', 'raw bytes')
    finally:
        await c.close()


async def get_task_history_length():
    c = await client()
    try:
        first = await send_one(c, user_message('ask'))
        task = first.task
        eq(state_name(task.status.state), 'TASK_STATE_INPUT_REQUIRED', 'state after ask')
        second = await send_one(c, user_message('Oslo', task_id=task.id, context_id=task.context_id))
        eq(state_name(second.task.status.state), 'TASK_STATE_COMPLETED', 'state after follow-up')
        full = await c.get_task(GetTaskRequest(id=task.id))
        check(len(full.history) >= 2, f'full history has {len(full.history)} messages')
        one = await c.get_task(GetTaskRequest(id=task.id, history_length=1))
        eq(len(one.history), 1, 'history with historyLength=1')
        eq(one.history[0].message_id, full.history[-1].message_id, 'the one message kept is the newest')
        sent = await send_one(c, user_message('ping'), history_length=0)
        none = await c.get_task(GetTaskRequest(id=task.id, history_length=0))
        if HISTORY_ZERO_MEANS_NONE:
            eq(len(sent.task.history), 0, 'history of a SendMessage with historyLength=0')
            eq(len(none.history), 0, 'history with historyLength=0')
        else:
            check(len(sent.task.history) >= 1, 'history of a SendMessage with historyLength=0 (no limit)')
            eq(len(none.history), len(full.history), 'history with historyLength=0 (no limit)')
        eq(none.id, task.id, 'task id')
        eq(texts(none.artifacts[0].parts), ['Sunny in Oslo.'], 'artifact text')
    finally:
        await c.close()


async def list_tasks_paging():
    c = await client()
    try:
        context_id = str(uuid.uuid4())
        created = []
        for i in range(3):
            created.append((await completed_echo_task(c, f'page {i}', context_id=context_id)).id)
        page1 = await c.list_tasks(ListTasksRequest(context_id=context_id, page_size=2))
        eq(len(page1.tasks), 2, 'tasks on page 1')
        eq(page1.total_size, 3, 'totalSize')
        eq(page1.page_size, 2, 'pageSize')
        check(page1.next_page_token != '', 'page 1 has no nextPageToken')
        page2 = await c.list_tasks(
            ListTasksRequest(context_id=context_id, page_size=2, page_token=page1.next_page_token))
        eq(len(page2.tasks), 1, 'tasks on page 2')
        eq(page2.next_page_token, '', 'nextPageToken on the last page')
        listed = [t.id for t in page1.tasks] + [t.id for t in page2.tasks]
        eq(listed, list(reversed(created)), 'tasks newest first')
        for t in list(page1.tasks) + list(page2.tasks):
            eq(t.context_id, context_id, 'listed task contextId')
            eq(len(t.artifacts), 0, 'artifacts without includeArtifacts')
        with_artifacts = await c.list_tasks(
            ListTasksRequest(context_id=context_id, page_size=1, include_artifacts=True))
        eq(texts(with_artifacts.tasks[0].artifacts[0].parts), ['page 2'], 'artifact with includeArtifacts')
    finally:
        await c.close()


async def list_tasks_filter():
    c = await client()
    try:
        context_id = str(uuid.uuid4())
        done = await completed_echo_task(c, 'filter', context_id=context_id)
        asking = (await send_one(c, user_message('ask', context_id=context_id))).task
        eq(state_name(asking.status.state), 'TASK_STATE_INPUT_REQUIRED', 'state after ask')
        waiting = await c.list_tasks(ListTasksRequest(
            context_id=context_id, status=S.TASK_STATE_INPUT_REQUIRED))
        eq([t.id for t in waiting.tasks], [asking.id], 'tasks with status INPUT_REQUIRED')
        eq(waiting.total_size, 1, 'totalSize with a status filter')
        finished = await c.list_tasks(ListTasksRequest(
            context_id=context_id, status=S.TASK_STATE_COMPLETED, history_length=0))
        eq([t.id for t in finished.tasks], [done.id], 'tasks with status COMPLETED')
        eq(len(finished.tasks[0].history), 0, 'history with historyLength=0')
        everything = await c.list_tasks(ListTasksRequest(context_id=context_id))
        eq([t.id for t in everything.tasks], [asking.id, done.id], 'all tasks of the context, newest first')
        eq(everything.next_page_token, '', 'nextPageToken on the only page')
    finally:
        await c.close()


async def cancel_task():
    c = await client(polling=True)
    try:
        resp = await send_one(c, user_message('wait'), return_immediately=True)
        task_id = resp.task.id
        check(resp.task.status.state not in TERMINAL, 'the wait task ended by itself')
        canceled = await c.cancel_task(CancelTaskRequest(id=task_id))
        eq(canceled.id, task_id, 'canceled task id')
        eq(state_name(canceled.status.state), 'TASK_STATE_CANCELED', 'state returned by CancelTask')
        again = await c.get_task(GetTaskRequest(id=task_id))
        eq(state_name(again.status.state), 'TASK_STATE_CANCELED', 'state after cancel')
    finally:
        await c.close()


async def cancel_task_stream():
    streamer = await client(streaming=True)
    canceller = await client()
    try:
        events = []
        canceled = None
        stream = streamer.send_message(SendMessageRequest(message=user_message('wait')))
        async for event in stream:
            events.append(event)
            check(len(events) <= 20, 'more than 20 events')
            kind = event.WhichOneof('payload')
            state = event.task.status.state if kind == 'task' else (
                event.status_update.status.state if kind == 'status_update' else None)
            if state == S.TASK_STATE_WORKING and canceled is None:
                task_id = event.task.id if kind == 'task' else event.status_update.task_id
                canceled = await canceller.cancel_task(CancelTaskRequest(id=task_id))
        check(canceled is not None, 'the stream never showed TASK_STATE_WORKING')
        eq(state_name(canceled.status.state), 'TASK_STATE_CANCELED', 'state returned by CancelTask')
        last = events[-1]
        check(last.HasField('status_update'), f'last event is not a status update: {last}')
        eq(state_name(last.status_update.status.state), 'TASK_STATE_CANCELED', 'the stream ends canceled')
    finally:
        await streamer.close()
        await canceller.close()


async def subscribe_to_task():
    poller = await client(polling=True)
    streamer = await client(streaming=True)
    try:
        resp = await send_one(poller, user_message('slow 1500'), return_immediately=True)
        task_id = resp.task.id
        events = await collect(streamer.subscribe(SubscribeToTaskRequest(id=task_id)))
        check(len(events) >= 2, f'only {len(events)} events')
        check(events[0].HasField('task'), f'first event is not the task: {events[0]}')
        eq(events[0].task.id, task_id, 'first event task id')
        check(events[0].task.status.state not in TERMINAL, 'first event already terminal')
        artifacts = [e.artifact_update for e in events if e.HasField('artifact_update')]
        eq([texts(a.artifact.parts) for a in artifacts], [['done']], 'artifact events')
        last = events[-1]
        check(last.HasField('status_update'), f'last event is not a status update: {last}')
        eq(state_name(last.status_update.status.state), 'TASK_STATE_COMPLETED', 'last status')
    finally:
        await poller.close()
        await streamer.close()


async def subscribe_through_input_required():
    sender = await client()
    streamer = await client(streaming=True)
    try:
        first = await send_one(sender, user_message('ask'))
        task = first.task
        eq(state_name(task.status.state), 'TASK_STATE_INPUT_REQUIRED', 'state after ask')
        events = []
        answered = None
        async for event in streamer.subscribe(SubscribeToTaskRequest(id=task.id)):
            events.append(event)
            check(len(events) <= 20, 'more than 20 events')
            if answered is None:
                check(event.HasField('task'), f'first event is not the task: {event}')
                eq(state_name(event.task.status.state), 'TASK_STATE_INPUT_REQUIRED', 'first event state')
                # Another client answers while this one watches.
                answered = await send_one(sender, user_message(
                    'Lima', task_id=task.id, context_id=task.context_id))
        eq(state_name(answered.task.status.state), 'TASK_STATE_COMPLETED', 'state after the answer')
        arts = [e.artifact_update for e in events if e.HasField('artifact_update')]
        eq([texts(a.artifact.parts) for a in arts], [['Sunny in Lima.']],
           'artifact events the subscriber saw')
        last = events[-1]
        check(last.HasField('status_update'), f'last event is not a status update: {last}')
        eq(state_name(last.status_update.status.state), 'TASK_STATE_COMPLETED', 'last status')
    finally:
        await sender.close()
        await streamer.close()


async def multi_turn_input_required():
    c = await client()
    try:
        first = await send_one(c, user_message('ask'))
        check(first.HasField('task'), 'expected a task')
        task = first.task
        eq(state_name(task.status.state), 'TASK_STATE_INPUT_REQUIRED', 'state after ask')
        eq(texts(task.status.message.parts), ['Which city?'], 'status message text')
        eq(task.status.message.role, Role.ROLE_AGENT, 'status message role')
        second = await send_one(c, user_message('Paris', task_id=task.id, context_id=task.context_id))
        eq(second.task.id, task.id, 'follow-up continues the same task')
        eq(second.task.context_id, task.context_id, 'contextId')
        eq(state_name(second.task.status.state), 'TASK_STATE_COMPLETED', 'state after follow-up')
        eq(texts(second.task.artifacts[0].parts), ['Sunny in Paris.'], 'artifact text')
    finally:
        await c.close()


async def multi_turn_stream():
    c = await client(streaming=True)
    try:
        events = await collect(c.send_message(SendMessageRequest(message=user_message('ask'))))
        check(events[0].HasField('task'), 'first event is not a task')
        task_id = events[0].task.id
        context_id = events[0].task.context_id
        last = events[-1]
        check(last.HasField('status_update'), f'last event is not a status update: {last}')
        eq(state_name(last.status_update.status.state), 'TASK_STATE_INPUT_REQUIRED',
           'the stream ends at input-required')
        follow = await collect(c.send_message(SendMessageRequest(
            message=user_message('Rome', task_id=task_id, context_id=context_id))))
        for e in follow:
            kind = e.WhichOneof('payload')
            inner = getattr(e, kind)
            eq(inner.id if kind == 'task' else inner.task_id, task_id, f'{kind} event task id')
        arts = [e.artifact_update for e in follow if e.HasField('artifact_update')]
        eq([texts(a.artifact.parts) for a in arts], [['Sunny in Rome.']], 'artifact events')
        eq(state_name(follow[-1].status_update.status.state), 'TASK_STATE_COMPLETED', 'final state')
    finally:
        await c.close()


def http_status(error: Exception):
    """The HTTP status of the answer an SDK error was raised for, if it was an HTTP error."""
    response = getattr(error.__cause__, 'response', None)
    return getattr(response, 'status_code', None)


# The gRPC status of each A2A error the scenarios expect (spec 1.0 §10.6; SUMMARY §2).
GRPC_STATUS = {
    TaskNotFoundError: 'NOT_FOUND',
    ContentTypeNotSupportedError: 'INVALID_ARGUMENT',
    InvalidParamsError: 'INVALID_ARGUMENT',
}


def grpc_status(error: Exception):
    """The gRPC status code of the call an SDK error was raised for, if it was a gRPC error."""
    cause = error.__cause__
    return cause.code().name if isinstance(cause, grpc.aio.AioRpcError) else None


async def expect_error(cls, coro, what: str, status: int = 400):
    """Awaits `coro`, which must raise `cls`; over HTTP+JSON, from an answer with `status`; over
    gRPC, from a call that ended with the gRPC status of `cls`."""
    try:
        result = await coro
    except cls as e:
        if REST:
            eq(http_status(e), status, f'{what}: HTTP status')
        if GRPC:
            eq(grpc_status(e), GRPC_STATUS.get(cls, 'FAILED_PRECONDITION'), f'{what}: gRPC status')
        return e
    except Exception as e:  # noqa: BLE001
        raise Failed(f'{what}: expected {cls.__name__}, got {type(e).__name__}: {e}') from e
    shown = ' '.join(str(result).split())
    raise Failed(f'{what}: expected {cls.__name__}, got a result: {shown[:300]}')


async def error_task_not_found():
    c = await client(streaming=True)
    try:
        missing = f'missing-{uuid.uuid4()}'
        e = await expect_error(TaskNotFoundError, c.get_task(GetTaskRequest(id=missing)), 'GetTask', 404)
        check(e.data is None or e.data.get('taskId') in (None, missing), f'ErrorInfo metadata {e.data}')
        await expect_error(TaskNotFoundError, c.cancel_task(CancelTaskRequest(id=missing)), 'CancelTask', 404)
        await expect_error(TaskNotFoundError, collect(c.subscribe(SubscribeToTaskRequest(id=missing))),
                           'SubscribeToTask', 404)
    finally:
        await c.close()


async def error_task_not_cancelable():
    c = await client()
    try:
        task = await completed_echo_task(c)
        await expect_error(TaskNotCancelableError, c.cancel_task(CancelTaskRequest(id=task.id)), 'CancelTask')
    finally:
        await c.close()


async def error_subscribe_terminal():
    c = await client(streaming=True)
    try:
        events = await collect(c.send_message(SendMessageRequest(message=user_message('ping'))))
        task_id = events[0].task.id
        await expect_error(UnsupportedOperationError,
                           collect(c.subscribe(SubscribeToTaskRequest(id=task_id))),
                           'SubscribeToTask on a completed task')
    finally:
        await c.close()


async def error_send_to_terminal_task():
    c = await client()
    try:
        task = await completed_echo_task(c)
        await expect_error(UnsupportedOperationError,
                           send_one(c, user_message('more', task_id=task.id, context_id=task.context_id)),
                           'SendMessage to a completed task')
    finally:
        await c.close()


async def error_content_type():
    c = await client()
    try:
        msg = user_message('ping')
        msg.parts.append(Part(url='https://example.com/a.mp4', media_type='video/mp4'))
        await expect_error(ContentTypeNotSupportedError, send_one(c, msg),
                           'SendMessage with a video/mp4 part to an agent without that input mode')
    finally:
        await c.close()


async def error_push_not_supported():
    c = await client()
    try:
        task = await completed_echo_task(c)
        await expect_error(PushNotificationNotSupportedError,
                           c.create_task_push_notification_config(TaskPushNotificationConfig(
                               task_id=task.id, url='http://127.0.0.1:9/webhook')),
                           'CreateTaskPushNotificationConfig on an agent without push')
    finally:
        await c.close()


async def error_extended_card_unsupported():
    # The SDK only asks when the card claims an extended card; this one does not, so the
    # transport gets a copy of the card that claims it.
    async with httpx.AsyncClient(timeout=HTTP_TIMEOUT) as http:
        card = await A2ACardResolver(http, BASE).get_agent_card()
        claimed = type(card)()
        claimed.CopyFrom(card)
        claimed.capabilities.extended_agent_card = True
        if GRPC:
            t = GrpcTransport(grpc_channel(interface_of(card).url), claimed)
        else:
            t = TRANSPORTS[BINDING](http, claimed, interface_of(card).url, is_shared_httpx=True)
            http.headers['A2A-Version'] = '1.0'
        try:
            await expect_error(UnsupportedOperationError,
                               t.get_extended_agent_card(GetExtendedAgentCardRequest()),
                               'GetExtendedAgentCard on an agent without one')
        finally:
            if GRPC:
                await t.close()


async def raw_transport(headers: dict):
    """The SDK's own transport of BINDING, on an httpx client with exactly these headers (over
    gRPC: on a channel that sends exactly this `a2a-version` metadata)."""
    async with httpx.AsyncClient(timeout=HTTP_TIMEOUT) as http:
        card = await A2ACardResolver(http, BASE).get_agent_card()
    if GRPC:
        version = VersionMetadata(headers.get('A2A-Version'))
        return GrpcTransport(grpc_channel(interface_of(card).url, [version]), card)
    http = httpx.AsyncClient(timeout=HTTP_TIMEOUT, headers=headers)
    return TRANSPORTS[BINDING](http, card, interface_of(card).url)


async def error_version_missing():
    t = await raw_transport({})
    try:
        await expect_error(VersionNotSupportedError,
                           t.send_message(SendMessageRequest(message=user_message('ping'))),
                           'SendMessage without A2A-Version')
    finally:
        await t.close()


async def error_version_unsupported():
    for version in ('2.0', '0.2'):
        t = await raw_transport({'A2A-Version': version})
        try:
            await expect_error(VersionNotSupportedError,
                               t.get_task(GetTaskRequest(id='any')),
                               f'GetTask with A2A-Version: {version}')
        finally:
            await t.close()


async def error_invalid_params():
    c = await client()
    try:
        await expect_error(InvalidParamsError,
                           c.list_tasks(ListTasksRequest(page_token='not-a-token-we-issued')),
                           'ListTasks with a forged pageToken')
        # The spec's range is 1 to 100: a larger page is refused, not cut down.
        await expect_error(InvalidParamsError, c.list_tasks(ListTasksRequest(page_size=101)),
                           'ListTasks with pageSize 101')
    finally:
        await c.close()


SCENARIOS = [
    card_discovery,
    send_blocking,
    send_return_immediately,
    direct_message,
    direct_message_stream,
    stream_artifact_chunks,
    agent_failure,
    parts_roundtrip,
    get_task_history_length,
    list_tasks_paging,
    list_tasks_filter,
    cancel_task,
    cancel_task_stream,
    subscribe_to_task,
    multi_turn_input_required,
    multi_turn_stream,
    subscribe_through_input_required,
    error_task_not_found,
    error_task_not_cancelable,
    error_subscribe_terminal,
    error_send_to_terminal_task,
    error_content_type,
    error_push_not_supported,
    error_extended_card_unsupported,
    error_version_missing,
    error_version_unsupported,
    error_invalid_params,
]


async def main(scenarios=None) -> int:
    """Runs `scenarios` (default: SCENARIOS), or those of them named on the command line."""
    failures = 0
    for scenario in scenarios or SCENARIOS:
        name = scenario.__name__
        if WANTED and name not in WANTED:
            continue
        try:
            await asyncio.wait_for(scenario(), SCENARIO_TIMEOUT)
            print(f'PASS {name}', flush=True)
        except Skipped as e:
            print(f'SKIP {name}: {e}', flush=True)
        except Failed as e:
            failures += 1
            print(f'FAIL {name}: {e}', flush=True)
        except asyncio.TimeoutError:
            failures += 1
            print(f'FAIL {name}: timed out after {SCENARIO_TIMEOUT}s', flush=True)
        except Exception as e:  # noqa: BLE001
            failures += 1
            detail = ''.join(traceback.format_exception_only(type(e), e)).strip().replace('\n', ' | ')
            print(f'FAIL {name}: {detail}', flush=True)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(asyncio.run(main()))
