"""Signed agent cards, both ways: the a2a-sdk (Python) signing utilities against ours.

Usage: python card_signing.py A2A_BINARY [SCENARIO ...]

* python_signs_rust_verifies_*: the SDK's `create_agent_card_signer` signs a card (ES256,
  EdDSA and RS256 keys made here: P-256, Ed25519, RSA 2048); our client verifies it: `a2a card get -a CARD_FILE --card-jwks
  JWKS_FILE --require-signature` must print `Signatures: verified ...`. The same card with a
  changed field must be refused (exit 1, A2ACLI_ERR_CARD_INVALID).
* rust_signs_python_verifies_*: `a2a serve --card-key PEM` (the same three key types) serves a
  signed card; the SDK's `create_signature_verifier`, with the key from the agent's JWKS (at
  the signature's `jku`), must accept the card as served, and refuse it with a changed field.

Prints one line per scenario, `PASS name` or `FAIL name: reason`, and exits 1 on any failure.
"""

import json
import os
import subprocess
import sys
import tempfile
import traceback
import urllib.request

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from google.protobuf import json_format
from jwt.api_jwk import PyJWK

from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from a2a.utils.signing import (
    InvalidSignaturesError,
    create_agent_card_signer,
    create_signature_verifier,
)

ALGORITHMS = ['ES256', 'EdDSA', 'RS256']


class Failed(Exception):
    """A scenario's expectation that did not hold."""


def check(condition, message):
    if not condition:
        raise Failed(message)


def new_key(alg):
    """A private key of the JWS algorithm `alg`."""
    if alg == 'ES256':
        return ec.generate_private_key(ec.SECP256R1())
    if alg == 'RS256':
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return ed25519.Ed25519PrivateKey.generate()


def pem(key):
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode('ascii')


def public_jwk(key, alg, kid):
    """The public JWK of `key`, as PyJWT writes it, with `kid` and `alg`."""
    from jwt.algorithms import ECAlgorithm, OKPAlgorithm, RSAAlgorithm

    algorithm = {'ES256': ECAlgorithm, 'RS256': RSAAlgorithm}.get(alg, OKPAlgorithm)
    jwk = json.loads(algorithm.to_jwk(key.public_key()))
    jwk.update({'kid': kid, 'alg': alg, 'use': 'sig'})
    return jwk


def sample_card():
    return AgentCard(
        name='Signed by Python',
        description='A card the a2a-sdk signs: ünïcödé, "quotes" and numbers 1.5e3',
        version='1.0.0',
        supported_interfaces=[
            AgentInterface(
                url='http://127.0.0.1:9/', protocol_binding='JSONRPC', protocol_version='1.0'
            )
        ],
        capabilities=AgentCapabilities(streaming=True, push_notifications=False),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[AgentSkill(id='echo', name='Echo', description='Echoes', tags=['echo'])],
    )


def run_cli(binary, *args):
    return subprocess.run(
        [binary, *args], capture_output=True, text=True, timeout=60, check=False
    )


def python_signs_rust_verifies(binary, alg):
    key = new_key(alg)
    kid = f'py-{alg.lower()}'
    signer = create_agent_card_signer(key, {'alg': alg, 'kid': kid, 'typ': 'JOSE', 'jku': None})
    card = signer(sample_card())
    document = json_format.MessageToDict(card)
    with tempfile.TemporaryDirectory() as tmp:
        card_path = os.path.join(tmp, 'card.json')
        jwks_path = os.path.join(tmp, 'jwks.json')
        with open(jwks_path, 'w', encoding='utf-8') as f:
            json.dump({'keys': [public_jwk(key, alg, kid)]}, f)
        with open(card_path, 'w', encoding='utf-8') as f:
            json.dump(document, f, ensure_ascii=False)
        run = run_cli(binary, 'card', 'get', '-a', card_path, '--card-jwks', jwks_path,
                      '--require-signature')
        check(run.returncode == 0, f'a2a card get exited {run.returncode}: {run.stderr.strip()}')
        check(f'Signatures: verified: signature 1 (kid `{kid}`)' in run.stdout,
              f'no verified signature in: {run.stdout.strip()}')
        document['name'] = 'Tampered'
        with open(card_path, 'w', encoding='utf-8') as f:
            json.dump(document, f, ensure_ascii=False)
        run = run_cli(binary, 'card', 'get', '-a', card_path, '--card-jwks', jwks_path,
                      '--require-signature', '-o', 'json')
        check(run.returncode == 1, f'a tampered card: exit {run.returncode}, not 1')
        check('A2ACLI_ERR_CARD_INVALID' in run.stdout,
              f'a tampered card: no A2ACLI_ERR_CARD_INVALID in {run.stdout.strip()}')


def fetch_json(url):
    with urllib.request.urlopen(url, timeout=20) as answer:
        return json.loads(answer.read().decode('utf-8'))


def rust_signs_python_verifies(binary, alg):
    key = new_key(alg)
    kid = f'rs-{alg.lower()}'
    with tempfile.TemporaryDirectory() as tmp:
        key_path = os.path.join(tmp, 'card-key.pem')
        with open(key_path, 'w', encoding='ascii') as f:
            f.write(pem(key))
        server = subprocess.Popen(
            [binary, 'serve', '--addr', '127.0.0.1:0', '--no-grpc', '--card-key', key_path,
             '--card-kid', kid],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        try:
            first = server.stdout.readline().strip()
            check(' at http://' in first, f'a2a serve printed {first!r}')
            url = first.rsplit(' at ', 1)[1]
            document = fetch_json(url + '/.well-known/agent-card.json')
            check(document.get('signatures'), f'the served card has no signatures: {document}')
            jwks = fetch_json(url + '/.well-known/jwks.json')
            asked = []

            def key_provider(kid_asked, jku):
                asked.append((kid_asked, jku))
                check(jku == url + '/.well-known/jwks.json', f'jku {jku!r}')
                keys = fetch_json(jku)['keys']
                found = [k for k in keys if k.get('kid') == kid_asked]
                check(found, f'kid {kid_asked!r} is not in the JWKS {keys}')
                return PyJWK(found[0])

            check(any(k.get('kid') == kid for k in jwks['keys']), f'no {kid} in {jwks}')
            verify = create_signature_verifier(key_provider, ALGORITHMS)
            card = json_format.ParseDict(document, AgentCard(), ignore_unknown_fields=True)
            verify(card)
            check(asked == [(kid, url + '/.well-known/jwks.json')], f'keys asked: {asked}')
            card.description = 'Tampered'
            try:
                verify(card)
            except InvalidSignaturesError:
                pass
            else:
                raise Failed('the SDK accepted a tampered card')
        finally:
            server.kill()
            server.wait(timeout=10)


SCENARIOS = {
    'python_signs_rust_verifies_es256': lambda b: python_signs_rust_verifies(b, 'ES256'),
    'python_signs_rust_verifies_eddsa': lambda b: python_signs_rust_verifies(b, 'EdDSA'),
    'rust_signs_python_verifies_es256': lambda b: rust_signs_python_verifies(b, 'ES256'),
    'rust_signs_python_verifies_eddsa': lambda b: rust_signs_python_verifies(b, 'EdDSA'),
    'python_signs_rust_verifies_rs256': lambda b: python_signs_rust_verifies(b, 'RS256'),
    'rust_signs_python_verifies_rs256': lambda b: rust_signs_python_verifies(b, 'RS256'),
}


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    binary = sys.argv[1]
    names = sys.argv[2:] or list(SCENARIOS)
    failed = False
    for name in names:
        try:
            SCENARIOS[name](binary)
            print(f'PASS {name}', flush=True)
        except Exception as e:  # pylint: disable=broad-except
            failed = True
            traceback.print_exc()
            reason = str(e).replace('\n', ' ') or type(e).__name__
            print(f'FAIL {name}: {reason}', flush=True)
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
