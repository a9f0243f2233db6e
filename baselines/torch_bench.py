#!/usr/bin/env python3
"""PyTorch beside our kernels in `puzzle bench` (docs/baselines.md, "PyTorch beside your kernel").

`puzzle bench` runs this script in a process of its own (never in the child that runs the learner's code)
and shows what it prints as columns beside the kernels. torch is no dependency: without it, or without a
CUDA device, the script says so and the columns are left out. It times what a learner would call instead
of the puzzle, the way the child times kernels (harness/child/bench.cpp), so that the columns compare:
  - the first call is untimed (it also tells whether a backend accepts the shape); one timed call then
    sizes the rest: as many as fit in budget_ms, at most `reps`, after warmup - 1 more untimed calls when
    they fit too; the median is reported;
  - each timed call is queued behind a spin kernel (torch.cuda._sleep), so that the CUDA events time the
    GPU's work and not the launch's path to it. Python's path is longer than a C++ launcher's: the spin
    lasts twice the longest host time of a call seen so far, and at least the child's 20 us;
  - inputs and outputs rotate over enough copies to exceed 3x the L2 cache (while 1 GiB stays free).

Request on stdin (JSON):
  {"op": "softmax" | "attention_forward" | "attention_backward", "dtype": "float32",
   "shapes": [{"name": "8192x8192", "rows": 8192, "cols": 8192}, ...]                      (softmax)
           | [{"name": "d64_n1024", "bh": 512, "n_q": 1024, "n_k": 1024, "d": 64, "causal": 0,
               "scale": 0.125}, ...],                                                       (attention)
   "warmup": 3, "reps": 20, "budget_ms": 2000}
Reply on stdout, one JSON object a line:
  first {"torch": "2.11.0+cu130", "device": "NVIDIA H100 80GB HBM3", "columns": ["SDPA flash", ...]},
  then, as each shape is timed, {"shape": "d64_n1024", "results": {"SDPA flash": {"error": "needs Half or
  BFloat16"}, "SDPA mem-efficient": {"ms": 1.234}, ...}};
  or only {"unavailable": "not importable (ModuleNotFoundError)"} or {"unavailable": "no CUDA device"}.
Exit code 0 for these; 2 with {"error": "..."} for a request it cannot read or an argument.

Columns: "torch.softmax" (dim=-1) for softmax; for attention one per SDPA backend, each forced alone
with torch.nn.attention.sdpa_kernel: a backend that refuses the dtype or shape gives its reason in a few
words. "attention_backward" times the backward alone, as puzzle 6 does: torch.autograd.grad through a
retained graph (the kernels SDPA's backward launches), the forward run once, untimed, per input copy.
Causal masks: SDPA's is_causal aligns the mask top-left, the puzzles bottom-right; the two agree when
n_q == n_k, as in every bench shape, and other shapes are refused rather than timed wrongly.
"""
import json
import math
import os
import re
import sys
import time
import warnings

DTYPES = ("float32", "bfloat16", "float16")
SHAPE_KEYS = {"softmax": ("rows", "cols"), "attention_forward": ("bh", "n_q", "n_k", "d"),
              "attention_backward": ("bh", "n_q", "n_k", "d")}
# Column -> the SDPA backend forced alone, and how SDPA names it when it says why it did not use it.
SDPA_COLUMNS = {"SDPA flash": ("FLASH_ATTENTION", "flash attention"),
                "SDPA cuDNN": ("CUDNN_ATTENTION", "cudnn attention"),
                "SDPA mem-efficient": ("EFFICIENT_ATTENTION", "memory efficient"),
                "SDPA math": ("MATH", "math")}
MIN_SPIN_US = 20  # the child's busy-wait (harness/child/busy_wait.hpp)
MAX_SPIN_US = 20_000
HEADROOM_BYTES = 1 << 30  # left free while input copies are made, as in bench.cpp
REPLY_FD = 1  # where the reply goes: __main__ moves it aside so that stray prints cannot mix into it


class BadRequest(Exception):
    pass


def positive_int(value, what):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise BadRequest(f"{what} must be a positive integer, not {json.dumps(value)}")
    return value


def read_shape(shape, op, index):
    if not isinstance(shape, dict):
        raise BadRequest(f"shapes[{index}] must be an object")
    name = shape.get("name")
    if not isinstance(name, str) or not name:
        raise BadRequest(f"shapes[{index}] needs a name")
    read = {"name": name}
    for key in SHAPE_KEYS[op]:
        read[key] = positive_int(shape.get(key), f"shape {name}: {key}")
    if op != "softmax":
        causal = shape.get("causal", False)
        if causal not in (0, 1):  # True and False compare equal to 1 and 0
            raise BadRequest(f"shape {name}: causal must be true, false, 0 or 1")
        read["causal"] = bool(causal)
        scale = shape.get("scale", 1 / math.sqrt(read["d"]))
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not scale > 0:
            raise BadRequest(f"shape {name}: scale must be a positive number")
        read["scale"] = float(scale)
    return read


def read_request(text):
    """The request as a dict with every default filled in; BadRequest says what is wrong with it."""
    try:
        request = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadRequest(f"the request is not JSON: {error}") from None
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    unknown = sorted(set(request) - {"op", "dtype", "shapes", "warmup", "reps", "budget_ms"})
    if unknown:
        raise BadRequest(f"unknown keys: {', '.join(unknown)}")
    op = request.get("op")
    if op not in SHAPE_KEYS:
        raise BadRequest(f"op must be one of {', '.join(SHAPE_KEYS)}, not {json.dumps(op)}")
    dtype = request.get("dtype", "float32")
    if dtype not in DTYPES:
        raise BadRequest(f"dtype must be one of {', '.join(DTYPES)}, not {json.dumps(dtype)}")
    shapes = request.get("shapes")
    if not isinstance(shapes, list) or not shapes:
        raise BadRequest("shapes must be a non-empty list")
    shapes = [read_shape(shape, op, i) for i, shape in enumerate(shapes)]
    budget_ms = request.get("budget_ms", 2000)
    if isinstance(budget_ms, bool) or not isinstance(budget_ms, (int, float)) or not budget_ms > 0:
        raise BadRequest("budget_ms must be a positive number")
    return {"op": op, "dtype": dtype, "shapes": shapes, "budget_ms": float(budget_ms),
            "warmup": positive_int(request.get("warmup", 3), "warmup"),
            "reps": positive_int(request.get("reps", 20), "reps")}


def few_words(message):
    """SDPA's reason for refusing a backend, short enough for a table's note."""
    dtypes = re.search(r"dtype: \{([^}]*)\}", message)
    if dtypes:
        return "needs " + " or ".join(name.strip() for name in dtypes.group(1).split(","))
    lines = message.strip().splitlines()
    first = re.split(r"(?<=\.)\s", lines[0])[0].rstrip(".") if lines else "refused"
    return first if len(first) <= 80 else first[:77] + "..."


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


class Timer:
    """Times calls the way harness/child/bench.cpp times a launcher."""

    def __init__(self, torch, request):
        self.torch = torch
        self.warmup, self.reps, self.budget_ms = request["warmup"], request["reps"], request["budget_ms"]
        self.start = torch.cuda.Event(enable_timing=True)
        self.stop = torch.cuda.Event(enable_timing=True)
        self.cycles_per_us = self.spin_clock()

    def spin_clock(self):
        """torch.cuda._sleep counts clock cycles: how many make a microsecond on this GPU."""
        cycles = 2_000_000
        for _ in range(2):  # the first also loads the kernel
            self.start.record()
            self.torch.cuda._sleep(cycles)
            self.stop.record()
            self.stop.synchronize()
        return cycles / max(self.start.elapsed_time(self.stop) * 1000, 1.0)

    def median_ms(self, call, copies):
        """Median ms of call(copy) over the rotating copies, after an untimed first call."""
        torch, kept, host_us = self.torch, [None] * len(copies), []
        turn = 0

        def run():
            nonlocal turn
            i = turn % len(copies)
            if len(copies) == 1:
                kept[i] = None  # one copy is over 3x L2 alone: its output's memory can be reused
            began = time.perf_counter()
            kept[i] = call(copies[i])  # kept until its copy's next call: the outputs rotate too
            host_us.append((time.perf_counter() - began) * 1e6)
            turn += 1

        def timed():
            settled = host_us[1:] or host_us  # the first call also loads kernels and makes plans
            spin_us = min(max(MIN_SPIN_US, 2 * max(settled)), MAX_SPIN_US)
            torch.cuda._sleep(int(spin_us * self.cycles_per_us))
            self.start.record()
            run()
            self.stop.record()
            self.stop.synchronize()
            return self.start.elapsed_time(self.stop)

        run()  # the child's correctness run; here, where a backend refuses the shape
        torch.cuda.synchronize()
        probe = timed()
        reps = max(1, min(self.reps, int(self.budget_ms / max(probe, 1e-3))))
        if probe * (self.warmup + reps) <= self.budget_ms:
            for _ in range(self.warmup - 1):
                run()
        torch.cuda.synchronize()
        return median([timed() for _ in range(reps)])


def input_copies(torch, make, set_bytes):
    """make() -> one set of inputs; enough sets that together they exceed 3x L2, while memory allows."""
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    sets = [make()]
    while len(sets) < 3 * l2 // max(set_bytes, 1) + 1:
        free, _ = torch.cuda.mem_get_info()
        if free < set_bytes + HEADROOM_BYTES:
            break
        sets.append(make())
    return sets


def refusal_reason(messages, backend_name, error):
    """Why SDPA refused a backend. Refusing, it warns for each fused backend, whichever was asked for,
    "<name> kernel not used because:" followed by the first check that failed, then raises "No available
    kernel": the reason is the warning after the header of the backend asked for."""
    for header, reason in zip(messages, messages[1:]):
        if "not used because" in header and backend_name in header.lower() and "not used because" not in reason:
            return few_words(reason)
    return few_words(str(error))


def outcome(torch, measure, backend_name=""):
    """{"ms": median} or {"error": why}, with SDPA's warnings read for the reason it gives."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = {"ms": measure()}
        except torch.cuda.OutOfMemoryError:
            result = {"error": "out of memory"}
        except RuntimeError as error:
            result = {"error": refusal_reason([str(w.message) for w in caught], backend_name, error)}
        except Exception as error:  # anything else still leaves the other columns and shapes timed
            result = {"error": few_words(f"{type(error).__name__}: {error}")}
    torch.cuda.empty_cache()  # the copies are gone with measure()'s frame: give their memory back
    return result


def softmax_results(torch, timer, dtype, shape):
    rows, cols = shape["rows"], shape["cols"]
    size = torch.finfo(dtype).bits // 8

    def measure():
        copies = input_copies(torch, lambda: torch.randn(rows, cols, device="cuda", dtype=dtype),
                              2 * rows * cols * size)  # x and y, as the child counts a set
        return timer.median_ms(lambda x: torch.softmax(x, dim=-1), copies)

    return {"torch.softmax": outcome(torch, measure)}


def attention_results(torch, timer, dtype, shape, backward):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F

    if shape["causal"] and shape["n_q"] != shape["n_k"]:
        return {c: {"error": "causal needs n_q == n_k (SDPA aligns the mask top-left)"} for c in SDPA_COLUMNS}
    bh, n_q, n_k, d = shape["bh"], shape["n_q"], shape["n_k"], shape["d"]
    size = torch.finfo(dtype).bits // 8
    # q, k, v, o (and dout, dq, dk, dv): the buffers the child rotates for puzzle 5 (6).
    set_bytes = size * bh * d * (2 * n_q + 2 * n_k) * (2 if backward else 1)

    def attention(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=shape["causal"], scale=shape["scale"])

    def qkv():
        return [torch.randn(1, bh, n, d, device="cuda", dtype=dtype, requires_grad=backward)
                for n in (n_q, n_k, n_k)]

    def forward_copy():
        q, k, v = qkv()
        o = attention(q, k, v)
        return q, k, v, o, torch.randn_like(o)

    def measure():
        if backward:
            copies = input_copies(torch, forward_copy, set_bytes)
            call = lambda c: torch.autograd.grad(c[3], c[:3], c[4], retain_graph=True)
        else:
            copies = input_copies(torch, qkv, set_bytes)
            call = lambda c: attention(*c)
        return timer.median_ms(call, copies)

    results = {}
    for column, (backend, backend_name) in SDPA_COLUMNS.items():
        with sdpa_kernel([getattr(SDPBackend, backend)]):
            results[column] = outcome(torch, measure, backend_name)
    return results


def answer(line):
    os.write(REPLY_FD, (json.dumps(line) + "\n").encode())


def main(argv):
    if len(argv) > 1:
        answer({"error": f"takes no arguments (got {' '.join(argv[1:])}): the request comes on stdin"})
        return 2
    try:
        request = read_request(sys.stdin.read())
    except BadRequest as error:
        answer({"error": str(error)})
        return 2
    try:
        import torch
    except Exception as error:  # an ImportError, or a broken install's OSError
        answer({"unavailable": f"not importable ({type(error).__name__})"})
        return 0
    if not torch.cuda.is_available():
        answer({"unavailable": "no CUDA device"})
        return 0
    # fp32 stays fp32: TF32 would round the inputs of every product to a 10-bit mantissa.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.manual_seed(0)
    dtype = getattr(torch, request["dtype"])
    op = request["op"]
    columns = ["torch.softmax"] if op == "softmax" else list(SDPA_COLUMNS)
    answer({"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "columns": columns})
    timer = Timer(torch, request)
    for shape in request["shapes"]:
        if op == "softmax":
            results = softmax_results(torch, timer, dtype, shape)
        else:
            results = attention_results(torch, timer, dtype, shape, op == "attention_backward")
        answer({"shape": shape["name"], "results": results})
    return 0


if __name__ == "__main__":
    # The reply goes to the stdout we were given; anything a library prints goes to stderr instead.
    REPLY_FD = os.dup(1)
    os.dup2(2, 1)
    warnings.filterwarnings("ignore")  # SDPA narrates every backend it refuses; the reply says why
    sys.exit(main(sys.argv))
