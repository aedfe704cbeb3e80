"""Push notifications: the a2a-sdk (Python) client's push-config calls against our agent, and
what our agent delivers, read with the SDK's own types.

Usage: python push_scenarios.py BASE_URL [SCENARIO ...]

The agent is `a2a serve --push-allow 127.0.0.1 --push-sign --exec 'sleep 1; cat'`: push
delivery on, the SSRF guard opened for 127.0.0.1 (the receiver here), deliveries signed; each
task works for a second, then completes with an artifact holding the message text.

A webhook receiver runs in this process on 127.0.0.1:0. Every delivery must parse, strictly
(no unknown field), as the SDK's `StreamResponse` (what the SDK's own push sender posts), carry
the config's token and authorization, and come in order: the task, its status updates and
artifact updates, the completed status last.

Prints one line per scenario, `PASS name` or `FAIL name: reason`, and exits 1 on any failure.
"""

import asyncio
import sys

from google.protobuf import json_format

from a2a.types import (
    AuthenticationInfo,
    DeleteTaskPushNotificationConfigRequest,
    GetTaskPushNotificationConfigRequest,
    ListTaskPushNotificationConfigsRequest,
    SendMessageRequest,
    SendMessageConfiguration,
    StreamResponse,
    TaskPushNotificationConfig,
    TaskState,
)

# The scenario runner and the helpers of the client suite (this directory).
from client_scenarios import TERMINAL, Failed, check, client, eq, main, user_message


async def start_task(c, text: str, push: TaskPushNotificationConfig | None = None):
    """Sends `text` with returnImmediately (and a push config, if given); returns the task."""
    configuration = SendMessageConfiguration(return_immediately=True)
    if push is not None:
        configuration.task_push_notification_config.CopyFrom(push)
    request = SendMessageRequest(message=user_message(text), configuration=configuration)
    events = [e async for e in c.send_message(request)]
    eq(len(events), 1, 'number of responses to a non-streaming send')
    check(events[0].HasField('task'), f'expected a task, got {events[0]}')
    return events[0].task


class Receiver:
    """An HTTP/1.1 webhook on 127.0.0.1: answers 200 to every POST, queues (headers, body)."""

    def __init__(self):
        self.deliveries: asyncio.Queue = asyncio.Queue()
        self.server = None
        self.url = ''
        self.writers = set()

    async def start(self):
        self.server = await asyncio.start_server(self._connection, '127.0.0.1', 0)
        port = self.server.sockets[0].getsockname()[1]
        self.url = f'http://127.0.0.1:{port}/hook'
        return self

    async def stop(self):
        self.server.close()
        # The agent keeps its connections alive: close them, so that the server can go.
        for writer in list(self.writers):
            writer.close()
        await self.server.wait_closed()

    async def _connection(self, reader, writer):
        self.writers.add(writer)
        try:
            while True:
                request_line = await reader.readline()
                if not request_line:
                    return
                headers = {}
                while True:
                    line = (await reader.readline()).decode('latin-1').rstrip('\r\n')
                    if not line:
                        break
                    name, _, value = line.partition(':')
                    headers[name.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get('content-length', '0')))
                await self.deliveries.put((request_line.decode('latin-1').strip(), headers, body))
                writer.write(b'HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n')
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            return
        finally:
            self.writers.discard(writer)
            writer.close()

    async def until_terminal(self, limit: int = 20):
        """The deliveries, parsed as the SDK's StreamResponse, up to a terminal status."""
        events = []
        while len(events) < limit:
            request_line, headers, body = await self.deliveries.get()
            eq(request_line, 'POST /hook HTTP/1.1', 'request line')
            event = StreamResponse()
            # Strict: a field the SDK's types do not know fails the parse.
            json_format.Parse(body.decode('utf-8'), event, ignore_unknown_fields=False)
            events.append((headers, event))
            if event.HasField('status_update') and event.status_update.status.state in TERMINAL:
                return events
        raise Failed(f'no terminal status in {limit} deliveries')


def check_sequence(events, task_id: str, text: str) -> None:
    kinds = [e.WhichOneof('payload') for _, e in events]
    eq(kinds[-1], 'status_update', 'the last delivery')
    eq(TaskState.Name(events[-1][1].status_update.status.state), 'TASK_STATE_COMPLETED', 'the last state')
    artifact_text = ''
    for _, event in events:
        kind = event.WhichOneof('payload')
        check(kind in {'task', 'status_update', 'artifact_update'}, f'a {kind} delivery')
        ident = event.task.id if kind == 'task' else getattr(event, kind).task_id
        eq(ident, task_id, f'the task of a {kind} delivery')
        if kind == 'artifact_update':
            artifact_text += ''.join(p.text for p in event.artifact_update.artifact.parts)
    eq(artifact_text.strip(), text, 'the artifact text, as pushed')


# --- scenarios -----------------------------------------------------------------------------


async def push_config_crud():
    c = await client()
    try:
        task_id = (await start_task(c, 'crud')).id
        config = TaskPushNotificationConfig(
            task_id=task_id, id='py-1', url='http://127.0.0.1:9/hook', token='tok',
            authentication=AuthenticationInfo(scheme='Bearer', credentials='cred'))
        created = await c.create_task_push_notification_config(config)
        eq(created.id, 'py-1', 'created id')
        eq(created.task_id, task_id, 'created taskId')
        eq((created.url, created.token), ('http://127.0.0.1:9/hook', 'tok'), 'created url and token')
        eq((created.authentication.scheme, created.authentication.credentials), ('Bearer', 'cred'),
           'created authentication')
        got = await c.get_task_push_notification_config(
            GetTaskPushNotificationConfigRequest(task_id=task_id, id='py-1'))
        eq(got, created, 'get')
        listed = await c.list_task_push_notification_configs(
            ListTaskPushNotificationConfigsRequest(task_id=task_id))
        eq(list(listed.configs), [created], 'list')
        await c.delete_task_push_notification_config(
            DeleteTaskPushNotificationConfigRequest(task_id=task_id, id='py-1'))
        listed = await c.list_task_push_notification_configs(
            ListTaskPushNotificationConfigsRequest(task_id=task_id))
        eq(list(listed.configs), [], 'list after delete')
        # The SSRF guard: a private address is refused when the config is created.
        try:
            await c.create_task_push_notification_config(TaskPushNotificationConfig(
                task_id=task_id, url='http://10.0.0.1/hook'))
        except Exception as e:  # noqa: BLE001
            check('SSRF guard' in str(e), f'the refusal names the SSRF guard: {e}')
        else:
            raise Failed('a config at 10.0.0.1 was accepted')
    finally:
        await c.close()


async def push_from_send_message():
    receiver = await Receiver().start()
    c = await client()
    try:
        config = TaskPushNotificationConfig(
            url=receiver.url, token='tok-send',
            authentication=AuthenticationInfo(scheme='Bearer', credentials='cred-send'))
        task = await start_task(c, 'pushed from the send', config)
        events = await receiver.until_terminal()
        eq(events[0][1].WhichOneof('payload'), 'task', 'the first delivery')
        eq(TaskState.Name(events[0][1].task.status.state), 'TASK_STATE_SUBMITTED', 'the first state')
        check_sequence(events, task.id, 'pushed from the send')
        for headers, _ in events:
            eq(headers.get('content-type'), 'application/a2a+json', 'Content-Type')
            eq(headers.get('x-a2a-notification-token'), 'tok-send', 'X-A2A-Notification-Token')
            eq(headers.get('authorization'), 'Bearer cred-send', 'Authorization')
            check(headers.get('a2a-notification-signature', '').count('.') == 2,
                  'a compact JWS in A2A-Notification-Signature')
    finally:
        await c.close()
        await receiver.stop()


async def push_after_create():
    receiver = await Receiver().start()
    c = await client()
    try:
        task_id = (await start_task(c, 'pushed after the create')).id
        await c.create_task_push_notification_config(TaskPushNotificationConfig(
            task_id=task_id, url=receiver.url, token='tok-create'))
        # The task works for a second: the events after the create reach the receiver.
        events = await receiver.until_terminal()
        check_sequence(events, task_id, 'pushed after the create')
        for headers, _ in events:
            eq(headers.get('x-a2a-notification-token'), 'tok-create', 'X-A2A-Notification-Token')
            check('authorization' not in headers, 'no Authorization without authentication')
    finally:
        await c.close()
        await receiver.stop()


SCENARIOS = [
    push_config_crud,
    push_from_send_message,
    push_after_create,
]


if __name__ == '__main__':
    sys.exit(asyncio.run(main(SCENARIOS)))
