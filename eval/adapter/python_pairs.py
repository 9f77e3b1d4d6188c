"""Training pairs for the query adapter from Python sources: (docstring summary, the function without it).

Reads the standard library and packages of the embedding server's virtualenv, one JSON object per line
on stdout: {"query": first paragraph of the docstring, 25-400 characters, "code": the path, the `def`
line, then the function's source without its docstring (its first 2,000 characters), "package": where
it came from}. The `def` line appears twice, as in the text the product embeds for a chunk (a header
with the signature, then the content). No eval corpus is read: the PyPI corpora of eval/corpora.json
(and `attr`, attrs' other import name) are left out wherever they occur, and none may be in PACKAGES.
At most the per-package cap of pairs per package, files visited in a seeded random order, so a run on
the same installation is repeatable.

Usage: python python_pairs.py <site-packages dir> [per-package cap, default 700]
"""
import ast
import json
import os
import random
import sys

PACKAGES = [
    'sklearn', 'scipy', 'networkx', 'sympy', 'transformers', 'pydantic', 'starlette', 'fastapi', 'rich',
    'huggingface_hub', 'jinja2', 'anyio', 'httpx', 'pygments', 'markdown_it', 'sentence_transformers',
    'typer', 'uvicorn', 'packaging', 'fsspec', 'yaml', '_pytest', 'joblib', 'h11', 'httpcore', 'filelock',
]
CORPORA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'corpora.json')
# Other import names of an eval corpus.
IMPORT_NAMES = {'attrs': {'attrs', 'attr'}}


def left_out():
    """Folder names never read: the eval's PyPI corpora under each import name, and test folders."""
    with open(CORPORA, encoding='utf-8') as f:
        corpora = [c['name'] for c in json.load(f)['corpora'] if c.get('registry') == 'pypi']
    names = set().union(*(IMPORT_NAMES.get(c, {c}) for c in corpora))
    clash = names & set(PACKAGES)
    if clash:
        sys.exit(f'python_pairs: {sorted(clash)} is an eval corpus (eval/corpora.json); take it out of PACKAGES.')
    return names | {'test', 'tests', 'site-packages'}


def functions(path, root):
    try:
        with open(path, encoding='utf-8') as f:
            source = f.read()
        tree = ast.parse(source)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError) as error:
        print(f'python_pairs: skipped {path}: {error}', file=sys.stderr)
        return
    lines = source.splitlines()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name.startswith('_'):
            continue
        doc = ast.get_docstring(node)
        if not doc or len(node.body) < 3:
            continue
        summary = ' '.join(doc.strip().split('\n\n')[0].split())
        if not 25 <= len(summary) <= 400:
            continue
        first, docstring = node.lineno - 1, node.body[0]
        code_lines = lines[first:docstring.lineno - 1] + lines[docstring.end_lineno:node.end_lineno]
        if len(code_lines) < 4:
            continue
        rel = os.path.relpath(path, os.path.dirname(root))
        yield {'query': summary, 'code': f'{rel}\n{lines[first].strip()}\n' + '\n'.join(code_lines)[:2000]}


def main():
    site_packages = sys.argv[1]
    per_package = int(sys.argv[2]) if len(sys.argv) > 2 else 700
    rng = random.Random(7)
    excluded = left_out()
    roots = [(os.path.dirname(os.__file__), 'stdlib')] + [(os.path.join(site_packages, p), p) for p in PACKAGES]
    for root, name in roots:
        files = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in excluded and not d.startswith('test'))
            files += [os.path.join(folder, n) for n in sorted(names) if n.endswith('.py') and not n.startswith('test')]
        rng.shuffle(files)
        count = 0
        for path in files:
            for pair in functions(path, root):
                print(json.dumps({**pair, 'package': name}))
                count += 1
                if count >= per_package:
                    break
            if count >= per_package:
                break
        print(f'python_pairs: {name}: {count}', file=sys.stderr)


if __name__ == '__main__':
    main()
