"""The comparison the GPU tests make, with the tolerance of common/run/compare.cpp's gemm_tolerance():
atol = 4 eps K |alpha| max|A| max|B| + 4 eps |beta| max|C|, rtol = 4 eps (eps = FLT_EPSILON),
against a float64 product. NaN and Inf always fail."""
import numpy as np

EPS = float(np.finfo(np.float32).eps)


def reference(A, B, C0, alpha, beta):
    """alpha * A @ B + beta * C0 in float64 (C0 ignored when beta == 0, as the kernels must)."""
    out = alpha * (A.astype(np.float64) @ B.astype(np.float64))
    if beta != 0:
        out += beta * C0.astype(np.float64)
    return out


def mismatch(got, expected, K, alpha, beta, max_a=1.0, max_b=1.0, max_c=1.0, arithmetic="FP32"):
    """None when `got` matches, else one line naming the first bad element and how many there are."""
    got = np.asarray(got, dtype=np.float64)
    if got.shape != expected.shape:
        return f"shape {got.shape}, expected {expected.shape}"
    atol = 4 * EPS * K * abs(alpha) * max_a * max_b + (4 * EPS * abs(beta) * max_c if beta != 0 else 0.0)
    if arithmetic == "TF32":  # step 11: both inputs rounded to TF32, each product off by < 2^-10 of itself
        atol += 2.0 ** -10 * K * abs(alpha) * max_a * max_b
    allowed = atol + 4 * EPS * np.abs(expected)
    bad = ~np.isfinite(got) | ~(np.abs(got - expected) <= allowed)
    if not bad.any():
        return None
    r, c = map(int, np.argwhere(bad)[0])
    return (f"{int(bad.sum())} of {bad.size} elements wrong; first at ({r}, {c}): got {got[r, c]!r}, "
            f"expected {expected[r, c]!r}, allowed error {allowed[r, c]:.3g}")
