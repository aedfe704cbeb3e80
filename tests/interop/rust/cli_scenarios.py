"""Our client (a2a-client, through the `a2a` command) against an A2A 1.0 JSON-RPC agent.

Usage: python cli_scenarios.py [--binding JSONRPC|HTTP+JSON|GRPC] A2A_BINARY BASE_URL [SCENARIO ...]

Part 2 of the interop suite (docs/interop.md): the same scenarios, with the same names, as
tests/interop/python/client_scenarios.py, run by our client against the SDK agents. Every call
is one `a2a ... -o json` invocation (the command surface of the A2A CLI specification); the JSON
it prints is what a2a-client decoded, written back as ProtoJSON, and that is what the assertions
read (`--stream`: one StreamResponse per line). Errors are the specification's envelope
`{"error": {"code", "message", "hint", "a2aCode"}}` on stdout, whose `a2aCode` is the JSON-RPC
error code (-32001 ...), with exit status 1.

`--binding` (default JSONRPC) is passed on as `a2a --transport`: the interface of the card our
client is told to prefer. With `A2A_INTEROP_A2A_VERSION=0.3` in the environment (the `rust-0.3`
client of part 3), every call also says `--a2a-version 0.3`: our client speaks A2A 0.3 to the
agent. What 0.3 cannot say is left out then: `ListTasks` (the list scenarios and
`error_invalid_params`, which lists), and the media type of a data part (only files have one in
0.3). Where 0.3 asks less of the agent, the check asks less: a 0.3 subscription need not begin
with the task, and 0.3 names no error for a terminal task (the 0.3 SDKs answer -32602
InvalidParams, 1.0 says -32004).

Prints `PASS name`, `FAIL name: reason` or `SKIP name: reason` (a scenario the command cannot
express) per scenario; exits 1 on any failure. Standard library only.
"""

import base64
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid


ARGS = sys.argv[1:]
BINDING = 'JSONRPC'
if ARGS[:1] == ['--binding']:
    BINDING, ARGS = ARGS[1], ARGS[2:]
A2A = ARGS[0] if len(ARGS) > 0 else 'a2a'
BASE = ARGS[1].rstrip('/') if len(ARGS) > 1 else 'http://127.0.0.1:7430'
VERSION = os.environ.get('A2A_INTEROP_A2A_VERSION')  # e.g. '0.3'; None: 1.0
EXTRA = ['--transport', BINDING] + (['--a2a-version', VERSION] if VERSION else [])
CALL_TIMEOUT = 20  # seconds, for one a2a invocation
TERMINAL = {'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'}


class Failed(Exception):
    pass


class Skipped(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)


def eq(actual, expected, what):
    if actual != expected:
        raise Failed(f'{what}: expected {expected!r}, got {actual!r}')


def run(*args, ok=(0,)):
    """Runs `a2a ARGS`; returns (exit status, stdout, stderr)."""
    proc = subprocess.run([A2A, *args, *EXTRA], capture_output=True, text=True, timeout=CALL_TIMEOUT)
    if ok is not None and proc.returncode not in ok:
        raise Failed(f'`a2a {" ".join(args)}` exited {proc.returncode}: {proc.stderr.strip()}')
    return proc.returncode, proc.stdout, proc.stderr


def run_json(*args, ok=(0,)):
    _, out, _ = run(*args, '-a', BASE, '-o', 'json', ok=ok)
    return json.loads(out)


def run_lines(*args, ok=(0,)):
    """A streaming command: one StreamResponse per line."""
    _, out, _ = run(*args, '-a', BASE, '--stream', '-o', 'json', ok=ok)
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def expect_error(code, *args, legacy_codes=(), agent=None):
    """`a2a ARGS -a AGENT` (default: the agent's URL) fails with error `code` (or, speaking 0.3,
    one of `legacy_codes`)."""
    status, out, err = run(*args, '-a', agent or BASE, '-o', 'json', ok=None)
    check(status == 1, f'`a2a {" ".join(args)}` exited {status}, expected 1 (an error); stdout: {out[:200]}')
    try:
        envelope = json.loads(out)['error']
    except (ValueError, KeyError):
        raise Failed(f'expected an error envelope, got: {out[:200]} {err.strip()}')
    codes = [code, *legacy_codes] if VERSION else [code]
    check(envelope.get('a2aCode') in codes, f'expected error {" or ".join(map(str, codes))}, got: {envelope}')
    return envelope


def send(text, *extra, ok=(0,)):
    return run_json('send', text, *extra, ok=ok)


def task_of(answer):
    check('task' in answer, f'expected a task, got {answer}')
    return answer['task']


def state(task):
    return task['status']['state']


def texts(parts):
    return [p['text'] for p in parts if 'text' in p]


def kind(event):
    (k,) = event.keys()
    return k


def event_state(event):
    k = kind(event)
    if k == 'task':
        return event['task']['status']['state']
    if k == 'statusUpdate':
        return event['statusUpdate']['status']['state']
    return None


def event_task_id(event):
    k = kind(event)
    return event[k]['id'] if k == 'task' else event[k].get('taskId')


def wait_for_state(task_id, states, timeout=10.0):
    deadline = time.monotonic() + timeout
    while True:
        task = run_json('task', 'get', task_id)
        if state(task) in states:
            return task
        if time.monotonic() > deadline:
            raise Failed(f'task {task_id} still {state(task)} after {timeout}s')
        time.sleep(0.1)


class Follow:
    """A streaming `a2a` command read line by line while the scenario acts."""

    def __init__(self, *args):
        self.proc = subprocess.Popen([A2A, *args, '-a', BASE, '--stream', '-o', 'json', *EXTRA],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.events = []
        # A stream that never ends must not hang the scenario: kill it past the deadline.
        self.watchdog = threading.Timer(CALL_TIMEOUT, self.proc.kill)
        self.watchdog.start()

    def next(self):
        line = self.proc.stdout.readline()
        if not line:
            return None
        event = json.loads(line)
        self.events.append(event)
        return event

    def rest(self):
        while self.next() is not None:
            check(len(self.events) <= 50, 'more than 50 events')
        self.proc.wait(timeout=CALL_TIMEOUT)
        return self.events

    def close(self):
        self.watchdog.cancel()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


# --- scenarios -----------------------------------------------------------------------------


def no_list_in_legacy():
    if VERSION:
        raise Skipped(f'ListTasks does not exist in A2A {VERSION}')


def card_discovery():
    card = run_json('card', 'get')
    check(card.get('name'), 'card.name is empty')
    first = card['supportedInterfaces'][0]
    offered = [(i['protocolBinding'], i.get('protocolVersion'), i['url'].rstrip('/'))
               for i in card['supportedInterfaces']]
    if VERSION:
        # The interface our client speaks: that binding of that version, at the agent's URL.
        check(any(b == BINDING and v == VERSION and u.startswith(BASE) for b, v, u in offered),
              f'no {BINDING} {VERSION} interface at {BASE}: {offered}')
    elif BINDING == 'GRPC':
        # gRPC interfaces are `HOST:PORT`: the agent's host, a port of the agent's choosing.
        host = BASE.split('://', 1)[1].rsplit(':', 1)[0]
        check(any(b == 'GRPC' and v == '1.0' and u.rpartition(':')[0] == host and u.rpartition(':')[2].isdigit()
                  for b, v, u in offered),
              f'no GRPC 1.0 interface at {host}:PORT: {offered}')
    elif BINDING == 'JSONRPC':
        eq(first['protocolBinding'], 'JSONRPC', 'supportedInterfaces[0].protocolBinding')
        eq(first['protocolVersion'], '1.0', 'supportedInterfaces[0].protocolVersion')
        eq(first['url'].rstrip('/'), BASE, 'supportedInterfaces[0].url')
    else:
        check(any(b == BINDING and v == '1.0' and u.startswith(BASE) for b, v, u in offered),
              f'no {BINDING} 1.0 interface at {BASE}: {offered}')
    eq(card['capabilities'].get('streaming'), True, 'capabilities.streaming')
    check(card.get('defaultInputModes'), 'defaultInputModes is empty')
    check(card.get('skills') and card['skills'][0].get('id'), 'no skill with an id')


def send_blocking():
    task = task_of(send('ping'))
    check(task.get('id'), 'task.id is empty')
    check(task.get('contextId'), 'task.contextId is empty')
    eq(state(task), 'TASK_STATE_COMPLETED', 'task state')
    eq(len(task['artifacts']), 1, 'number of artifacts')
    eq(task['artifacts'][0]['artifactId'], 'echo', 'artifactId')
    eq(texts(task['artifacts'][0]['parts']), ['ping'], 'artifact text')
    first = task['history'][0]
    eq(first['role'], 'ROLE_USER', 'history[0].role')
    eq(first.get('taskId'), task['id'], 'history[0].taskId')
    eq(texts(first['parts']), ['ping'], 'history[0] text')


def send_return_immediately():
    task = task_of(send('slow 800', '--async'))
    check(state(task) in {'TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'},
          f'--async answered with {state(task)}, expected SUBMITTED or WORKING')
    done = wait_for_state(task['id'], TERMINAL)
    eq(state(done), 'TASK_STATE_COMPLETED', 'final state')
    eq(texts(done['artifacts'][0]['parts']), ['done'], 'artifact text')


def direct_message():
    answer = send('hello there')
    check('message' in answer, f'expected a direct message, got {answer}')
    eq(answer['message']['role'], 'ROLE_AGENT', 'message.role')
    eq(texts(answer['message']['parts']), ['hi!'], 'message text')
    check(answer['message'].get('messageId'), 'message.messageId is empty')


def direct_message_stream():
    events = run_lines('send', 'hello stream')
    eq(len(events), 1, 'events in a direct-message stream')
    eq(kind(events[0]), 'message', 'event kind')
    eq(texts(events[0]['message']['parts']), ['hi!'], 'message text')


def stream_artifact_chunks():
    events = run_lines('send', 'chunks 4')
    check(len(events) >= 6, f'only {len(events)} events')
    eq(kind(events[0]), 'task', 'first event kind')
    task_id = events[0]['task']['id']
    chunks = [e['artifactUpdate'] for e in events if kind(e) == 'artifactUpdate']
    eq(len(chunks), 4, 'artifact-update events')
    for i, chunk in enumerate(chunks):
        eq(chunk['taskId'], task_id, f'chunk {i} taskId')
        eq(chunk['artifact']['artifactId'], 'chunks', f'chunk {i} artifactId')
        eq(texts(chunk['artifact']['parts']), [f'c{i}'], f'chunk {i} text')
        eq(chunk.get('append', False), i > 0, f'chunk {i} append')
        eq(chunk.get('lastChunk', False), i == 3, f'chunk {i} lastChunk')
    eq(kind(events[-1]), 'statusUpdate', 'last event kind')
    eq(event_state(events[-1]), 'TASK_STATE_COMPLETED', 'last status')
    stored = run_json('task', 'get', task_id)
    eq(''.join(texts(stored['artifacts'][0]['parts'])), 'c0c1c2c3', 'stored artifact text')


def agent_failure():
    # The command did its job: exit 0, the outcome is the task's state.
    task = task_of(send('fail'))
    eq(state(task), 'TASK_STATE_FAILED', 'state of a failed task')
    events = run_lines('send', 'fail')
    eq(kind(events[0]), 'task', 'first event kind')
    eq(event_state(events[-1]), 'TASK_STATE_FAILED', 'the stream ends failed')


PNG = b'\x89PNG\r\n\x1a\n\x00\x01\xff'
DATA = {'k': 1, 'list': [1, 'two', None, True], 'nested': {'x': 1.5}}


def parts_roundtrip():
    # The command sends text, files (raw bytes, media type by extension, file name) and data.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'a.png')
        with open(path, 'wb') as f:
            f.write(PNG)
        task = task_of(send('parts and more', '--file', path, '--data', json.dumps(DATA)))
    eq(state(task), 'TASK_STATE_COMPLETED', 'state')
    want = [
        {'text': 'parts and more'},
        {'raw': base64.b64encode(PNG).decode(), 'mediaType': 'image/png', 'filename': 'a.png'},
        # 0.3 data parts have no media type.
        {'data': DATA} if VERSION else {'data': DATA, 'mediaType': 'application/json'},
    ]

    def normal(parts):
        # Data numbers may come back as floats (Python's Struct): compare as JSON values.
        return json.loads(json.dumps(parts), parse_int=float)

    eq(normal(task['artifacts'][0]['parts']), normal(want), 'the parts the agent echoed')
    stored = run_json('task', 'get', task['id'])
    eq(normal(stored['history'][0]['parts']), normal(want), 'the parts kept in history')


def get_task_history_length():
    task = task_of(send('ask'))
    eq(state(task), 'TASK_STATE_INPUT_REQUIRED', 'state after ask')
    second = task_of(send('Oslo', '--task-id', task['id'], '--context-id', task['contextId']))
    eq(state(second), 'TASK_STATE_COMPLETED', 'state after follow-up')
    full = run_json('task', 'get', task['id'])
    check(len(full['history']) >= 2, f'full history has {len(full["history"])} messages')
    one = run_json('task', 'get', task['id'], '--history', '1')
    eq(len(one['history']), 1, 'history with historyLength=1')
    eq(one['history'][0]['messageId'], full['history'][-1]['messageId'], 'newest message kept')
    none = run_json('task', 'get', task['id'], '--history', '0')
    eq(len(none.get('history', [])), 0, 'history with historyLength=0')
    eq(texts(none['artifacts'][0]['parts']), ['Sunny in Oslo.'], 'artifact text')


def list_tasks_paging():
    no_list_in_legacy()
    context = str(uuid.uuid4())
    created = [task_of(send(f'page {i}', '--context-id', context))['id'] for i in range(3)]
    page1 = run_json('task', 'list', '--context-id', context, '--page-size', '2')
    eq(len(page1['tasks']), 2, 'tasks on page 1')
    eq(page1['totalSize'], 3, 'totalSize')
    eq(page1['pageSize'], 2, 'pageSize')
    check(page1['nextPageToken'], 'page 1 has no nextPageToken')
    page2 = run_json('task', 'list', '--context-id', context, '--page-size', '2',
                     '--page-token', page1['nextPageToken'])
    eq(len(page2['tasks']), 1, 'tasks on page 2')
    eq(page2['nextPageToken'], '', 'nextPageToken on the last page')
    listed = [t['id'] for t in page1['tasks'] + page2['tasks']]
    eq(listed, list(reversed(created)), 'tasks newest first')
    for t in page1['tasks'] + page2['tasks']:
        eq(t.get('contextId'), context, 'listed task contextId')
        check('artifacts' not in t, 'artifacts without includeArtifacts')


def list_tasks_filter():
    no_list_in_legacy()
    context = str(uuid.uuid4())
    done = task_of(send('filter', '--context-id', context))
    asking = task_of(send('ask', '--context-id', context))
    eq(state(asking), 'TASK_STATE_INPUT_REQUIRED', 'state after ask')
    waiting = run_json('task', 'list', '--context-id', context, '--status', 'input-required')
    eq([t['id'] for t in waiting['tasks']], [asking['id']], 'tasks with status INPUT_REQUIRED')
    eq(waiting['totalSize'], 1, 'totalSize with a status filter')
    finished = run_json('task', 'list', '--context-id', context, '--status', 'completed')
    eq([t['id'] for t in finished['tasks']], [done['id']], 'tasks with status COMPLETED')
    everything = run_json('task', 'list', '--context-id', context)
    eq([t['id'] for t in everything['tasks']], [asking['id'], done['id']], 'all tasks, newest first')
    eq(everything['nextPageToken'], '', 'nextPageToken on the only page')


def cancel_task():
    task = task_of(send('wait', '--async'))
    check(state(task) not in TERMINAL, 'the wait task ended by itself')
    canceled = run_json('task', 'cancel', task['id'])
    eq(canceled['id'], task['id'], 'canceled task id')
    eq(state(canceled), 'TASK_STATE_CANCELED', 'state returned by CancelTask')
    eq(state(run_json('task', 'get', task['id'])), 'TASK_STATE_CANCELED', 'state after cancel')


def cancel_task_stream():
    stream = Follow('send', 'wait')
    try:
        canceled = None
        while (event := stream.next()) is not None:
            check(len(stream.events) <= 20, 'more than 20 events')
            if event_state(event) == 'TASK_STATE_WORKING' and canceled is None:
                canceled = run_json('task', 'cancel', event_task_id(event))
        stream.proc.wait(timeout=CALL_TIMEOUT)
        check(canceled is not None, 'the stream never showed TASK_STATE_WORKING')
        eq(state(canceled), 'TASK_STATE_CANCELED', 'state returned by CancelTask')
        last = stream.events[-1]
        eq(kind(last), 'statusUpdate', 'last event kind')
        eq(event_state(last), 'TASK_STATE_CANCELED', 'the stream ends canceled')
    finally:
        stream.close()


def subscribe_to_task():
    task = task_of(send('slow 1500', '--async'))
    events = run_lines('task', 'subscribe', task['id'])
    check(len(events) >= 2, f'only {len(events)} events')
    if not VERSION or kind(events[0]) == 'task':  # 0.3 subscriptions need not begin with the task
        eq(kind(events[0]), 'task', 'first event kind')
        eq(events[0]['task']['id'], task['id'], 'first event task id')
    check(event_state(events[0]) not in TERMINAL, 'first event already terminal')
    arts = [e['artifactUpdate'] for e in events if kind(e) == 'artifactUpdate']
    eq([texts(a['artifact']['parts']) for a in arts], [['done']], 'artifact events')
    eq(event_state(events[-1]), 'TASK_STATE_COMPLETED', 'last status')


def multi_turn_input_required():
    task = task_of(send('ask'))
    eq(state(task), 'TASK_STATE_INPUT_REQUIRED', 'state after ask')
    eq(texts(task['status']['message']['parts']), ['Which city?'], 'status message text')
    eq(task['status']['message']['role'], 'ROLE_AGENT', 'status message role')
    second = task_of(send('Paris', '--task-id', task['id'], '--context-id', task['contextId']))
    eq(second['id'], task['id'], 'follow-up continues the same task')
    eq(second['contextId'], task['contextId'], 'contextId')
    eq(state(second), 'TASK_STATE_COMPLETED', 'state after follow-up')
    eq(texts(second['artifacts'][0]['parts']), ['Sunny in Paris.'], 'artifact text')


def multi_turn_stream():
    events = run_lines('send', 'ask')
    eq(kind(events[0]), 'task', 'first event kind')
    task_id, context = events[0]['task']['id'], events[0]['task']['contextId']
    eq(event_state(events[-1]), 'TASK_STATE_INPUT_REQUIRED', 'the stream ends at input-required')
    follow = run_lines('send', 'Rome', '--task-id', task_id, '--context-id', context)
    for e in follow:
        eq(event_task_id(e), task_id, f'{kind(e)} event task id')
    arts = [e['artifactUpdate'] for e in follow if kind(e) == 'artifactUpdate']
    eq([texts(a['artifact']['parts']) for a in arts], [['Sunny in Rome.']], 'artifact events')
    eq(event_state(follow[-1]), 'TASK_STATE_COMPLETED', 'final state')


def subscribe_through_input_required():
    task = task_of(send('ask'))
    eq(state(task), 'TASK_STATE_INPUT_REQUIRED', 'state after ask')
    stream = Follow('task', 'subscribe', task['id'])
    try:
        first = stream.next()
        check(first is not None, 'the subscription ended without an event')
        eq(kind(first), 'task', 'first event kind')
        eq(event_state(first), 'TASK_STATE_INPUT_REQUIRED', 'first event state')
        answered = task_of(send('Lima', '--task-id', task['id'], '--context-id', task['contextId']))
        eq(state(answered), 'TASK_STATE_COMPLETED', 'state after the answer')
        events = stream.rest()
        arts = [e['artifactUpdate'] for e in events if kind(e) == 'artifactUpdate']
        eq([texts(a['artifact']['parts']) for a in arts], [['Sunny in Lima.']],
           'artifact events the subscriber saw')
        eq(event_state(events[-1]), 'TASK_STATE_COMPLETED', 'last status')
    finally:
        stream.close()


def error_task_not_found():
    missing = f'missing-{uuid.uuid4()}'
    expect_error(-32001, 'task', 'get', missing)
    expect_error(-32001, 'task', 'cancel', missing)
    expect_error(-32001, 'task', 'subscribe', missing)


def error_task_not_cancelable():
    task = task_of(send('ping'))
    expect_error(-32002, 'task', 'cancel', task['id'])


def error_subscribe_terminal():
    task = task_of(send('ping'))
    expect_error(-32004, 'task', 'subscribe', task['id'], legacy_codes=(-32602,))


def error_send_to_terminal_task():
    task = task_of(send('ping'))
    expect_error(-32004, 'send', 'more', '--task-id', task['id'], '--context-id', task['contextId'],
                 legacy_codes=(-32602,))


def error_content_type():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'a.mp3')
        with open(path, 'wb') as f:
            f.write(b'ID3')
        expect_error(-32005, 'send', 'ping', '--file', path)


def claiming_card(tmp):
    """The agent's card as a file that claims push notifications and an extended card (behind a
    bearer scheme), which the agent does not have: `a2a` checks a capability on the card before
    it calls the agent, so the command is given this card (`-a FILE`) to make the call, and the
    answer is the agent's. The card's interfaces still name the agent."""
    url = f'{BASE}/.well-known/agent-card.json'
    with urllib.request.urlopen(url, timeout=CALL_TIMEOUT) as response:
        card = json.load(response)
    card.setdefault('capabilities', {})['pushNotifications'] = True
    card['capabilities']['extendedAgentCard'] = True
    card['supportsAuthenticatedExtendedCard'] = True  # the 0.3 field
    # The 0.3 shape, which cards of every generation may use.
    card['securitySchemes'] = {'bearer': {'type': 'http', 'scheme': 'bearer'}}
    path = os.path.join(tmp, 'card.json')
    with open(path, 'w') as f:
        json.dump(card, f)
    return path


def error_push_not_supported():
    task = task_of(send('ping'))
    with tempfile.TemporaryDirectory() as tmp:
        expect_error(-32003, 'task', 'push-config', 'create', task['id'],
                     '--url', 'http://127.0.0.1:9/webhook', agent=claiming_card(tmp))


def error_extended_card_unsupported():
    with tempfile.TemporaryDirectory() as tmp:
        expect_error(-32004, 'card', 'get', '--extended', '--bearer', 'interop',
                     agent=claiming_card(tmp))


def error_version_missing():
    raise Skipped('our client always sends A2A-Version: 1.0')


def error_version_unsupported():
    raise Skipped('our client always sends A2A-Version: 1.0')


def error_invalid_params():
    no_list_in_legacy()
    expect_error(-32602, 'task', 'list', '--page-token', 'not-a-token-we-issued')


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


def main() -> int:
    wanted = set(ARGS[2:])
    failures = 0
    for scenario in SCENARIOS:
        name = scenario.__name__
        if wanted and name not in wanted:
            continue
        try:
            scenario()
            print(f'PASS {name}', flush=True)
        except Skipped as e:
            print(f'SKIP {name}: {e}', flush=True)
        except Failed as e:
            failures += 1
            print(f'FAIL {name}: {e}', flush=True)
        except subprocess.TimeoutExpired as e:
            failures += 1
            print(f'FAIL {name}: `a2a` did not finish within {e.timeout} s', flush=True)
        except Exception as e:  # noqa: BLE001
            failures += 1
            print(f'FAIL {name}: {type(e).__name__}: {e}'.replace('\n', ' | '), flush=True)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
