"""onyx.Session: running models with NumPy feeds, as onnxruntime's InferenceSession.run."""

import threading

import numpy as np
import pytest

import onyx


def test_run_all_and_named_outputs(arith_model):
    session = onyx.Session(arith_model)
    a = np.array([1, 2, 3], np.float32)
    b = np.array([4, 5, 6], np.float32)
    total, product = session.run(None, {"a": a, "b": b})
    np.testing.assert_array_equal(total, a + b)
    np.testing.assert_array_equal(product, a * b)
    (only,) = session.run(["product"], {"a": a, "b": b})
    np.testing.assert_array_equal(only, a * b)
    assert session.input_names == ["a", "b"]
    assert session.output_names == ["sum", "product"]


def test_conv_net_runs_and_matches_without_fusions(conv_model):
    x = np.random.default_rng(0).standard_normal((2, 3, 8, 8)).astype(np.float32)
    (fused,) = onyx.Session(conv_model, threads=1).run(None, {"x": x})
    (plain,) = onyx.Session(conv_model, threads=1, fusions=False).run(None, {"x": x})
    assert fused.shape == (2, 4, 8, 8) and (fused >= 0).all()
    np.testing.assert_allclose(fused, plain, rtol=1e-5, atol=1e-6)


def test_integer_convolution_gives_the_same_bits_at_every_cpu_tier():
    # A ConvInteger: its kernel differs by tier (below VNNI onyx's own), its sums never.
    model = onyx.parse_text(
        """<ir_version: 10, opset_import: ["" : 21]>
        g (uint8[1,8,9,9] x, uint8[4,8,3,3] w) => (int32[1,4,7,7] y) {
          y = ConvInteger (x, w)
        }"""
    )
    rng = np.random.default_rng(3)
    x = rng.integers(0, 256, (1, 8, 9, 9), dtype=np.uint8)
    w = rng.integers(0, 256, (4, 8, 3, 3), dtype=np.uint8)
    expected = np.zeros((1, 4, 7, 7), np.int64)
    for i in range(7):
        for j in range(7):
            window = x[0, :, i : i + 3, j : j + 3].astype(np.int64)
            expected[0, :, i, j] = (w.astype(np.int64) * window).sum(axis=(1, 2, 3))
    for tier in ["baseline", "avx2", "avx512", "avx512_vnni", "amx"]:
        (y,) = onyx.Session(model, threads=1, max_isa=tier).run(None, {"x": x, "w": w})
        np.testing.assert_array_equal(y, expected.astype(np.int32), err_msg=tier)
    with pytest.raises(ValueError, match="max_isa 'avx-512'|max_isa \"avx-512\""):
        onyx.Session(model, max_isa="avx-512")


def test_wrong_feeds_raise_clear_errors(arith_model):
    session = onyx.Session(arith_model)
    good = np.zeros(3, np.float32)
    with pytest.raises(ValueError, match="no input 'c'; its inputs: a, b"):
        session.run(None, {"a": good, "b": good, "c": good})
    with pytest.raises(ValueError, match="no value for the input 'b'"):
        session.run(None, {"a": good})
    with pytest.raises(onyx.OnyxError, match="'a'"):
        session.run(None, {"a": np.zeros(3, np.int64), "b": good})  # wrong dtype
    with pytest.raises(onyx.OnyxError, match="'a'"):
        session.run(None, {"a": np.zeros((3, 2), np.float32), "b": good})  # wrong rank
    with pytest.raises(ValueError, match="no output 'nope'"):
        session.run(["nope"], {"a": good, "b": good})
    with pytest.raises(TypeError):
        session.run("sum", {"a": good, "b": good})
    with pytest.raises(TypeError):
        session.run(None, {"a": object(), "b": good})


def test_a_changed_model_needs_a_new_session(arith_model):
    session = onyx.Session(arith_model)
    arith_model.graph.node(0).name = "changed"
    with pytest.raises(ValueError, match="changed after this Session"):
        session.run(None, {"a": np.zeros(1, np.float32), "b": np.zeros(1, np.float32)})


def test_sequence_and_optional_values():
    model = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 17]>
        g (seq(float[N]) s) => (float[M] y, int64 n) {
          y = ConcatFromSequence <axis: int = 0> (s)
          n = SequenceLength (s)
        }
        """
    )
    y, n = onyx.Session(model).run(None, {"s": [np.ones(2, np.float32), np.zeros(1, np.float32)]})
    np.testing.assert_array_equal(y, [1, 1, 0])
    assert n == 2


def test_outputs_share_no_memory_with_inputs(arith_model):
    a = np.ones(4, np.float32)
    total, _ = onyx.Session(arith_model).run(None, {"a": a, "b": a})
    total[0] = 9  # outputs are the caller's to change
    assert a[0] == 1


@pytest.mark.concurrency
def test_runs_of_one_session_on_two_threads_at_once(conv_model):
    session = onyx.Session(conv_model, threads=2, threads_per_run=1)
    x = np.ones((1, 3, 8, 8), np.float32)
    results = []

    def work():
        for _ in range(20):
            results.append(session.run(None, {"x": x})[0])

    threads = [threading.Thread(target=work) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 40
    for result in results[1:]:
        np.testing.assert_array_equal(result, results[0])


COUNTING = """<ir_version: 10, opset_import: ["" : 21]>
g (int64 m, float[4] x) => (float[4] y) {
  cond = Constant <value = bool {1}> ()
  [count] y = Loop (m, cond, x) <body = body (int64 i, bool c, float[4] v) => (bool co, float[4] vo) {
    one = Constant <value = float {1}> ()
    co = Identity (c)
    vo = Add (v, one)
  }>
}"""


def counting_feeds(times):
    return {"m": np.array(times, np.int64), "x": np.arange(4, dtype=np.float32)}


def test_a_run_past_its_timeout_raises_timeout_error_and_the_next_run_succeeds():
    session = onyx.Session(onyx.parse_text(COUNTING), threads=1)
    with pytest.raises(TimeoutError, match="deadline"):
        session.run(None, counting_feeds(10_000_000), timeout=0.02)
    (y,) = session.run(None, counting_feeds(2), timeout=60)
    np.testing.assert_array_equal(y, np.arange(4, dtype=np.float32) + 2)
    with pytest.raises(ValueError, match="timeout"):
        session.run(None, counting_feeds(2), timeout=-1)


@pytest.mark.concurrency
def test_cancel_stops_the_runs_in_progress_and_not_later_ones():
    import concurrent.futures

    session = onyx.Session(onyx.parse_text(COUNTING), threads=1)
    future = session.run_async(None, counting_feeds(10_000_000))
    # The run has started once cancel() finds it; until then, keep asking.
    while not future.done():
        session.cancel()
        try:
            future.result(timeout=0.01)
        except concurrent.futures.TimeoutError:
            pass
        except concurrent.futures.CancelledError:
            break
    assert isinstance(future.exception(), concurrent.futures.CancelledError)
    (y,) = session.run_async(None, counting_feeds(3)).result()
    np.testing.assert_array_equal(y, np.arange(4, dtype=np.float32) + 3)


@pytest.mark.concurrency
def test_a_run_waiting_its_turn_times_out_and_cancel_stops_the_one_running():
    import concurrent.futures

    session = onyx.Session(onyx.parse_text(COUNTING), runs_at_once=1)
    long_run = session.run_async(None, counting_feeds(10_000_000))
    # Once the long run holds the one turn, a run with a timeout waits and gives up.
    with pytest.raises(TimeoutError, match="waited its turn"):
        while True:
            session.run(None, counting_feeds(1), timeout=0.05)
    session.cancel()
    with pytest.raises(concurrent.futures.CancelledError):
        long_run.result()
    (y,) = session.run(None, counting_feeds(2))
    np.testing.assert_array_equal(y, np.arange(4, dtype=np.float32) + 2)
    with pytest.raises(ValueError, match="counts"):
        onyx.Session(onyx.parse_text(COUNTING), runs_at_once=-1)


def test_a_run_past_its_memory_limit_raises_and_the_next_run_succeeds():
    model = onyx.parse_text(
        """<ir_version: 10, opset_import: ["" : 21]>
g (float[1048576] x) => (float[1048576] y) { d = Add (x, x)  y = Mul (d, d) }"""
    )
    session = onyx.Session(model, threads=1)
    x = np.full(1 << 20, 1.5, np.float32)
    with pytest.raises(onyx.OnyxError, match="memory limit") as refused:
        session.run(None, {"x": x}, memory_limit=2 << 20)
    assert refused.value.code == "limit-exceeded"
    (y,) = session.run(None, {"x": x}, memory_limit=16 << 20)
    assert y[0] == 9.0


@pytest.mark.concurrency
def test_run_async_runs_at_once_and_gives_what_run_gives(conv_model):
    session = onyx.Session(conv_model, threads=2, threads_per_run=1)
    x = np.ones((1, 3, 8, 8), np.float32)
    (alone,) = session.run(None, {"x": x})
    futures = [session.run_async(None, {"x": x}) for _ in range(8)]
    for future in futures:
        np.testing.assert_array_equal(future.result()[0], alone)


def test_a_constant_given_back_is_the_callers_to_change(tmp_path):
    # 8 KiB of weights in a data file aligned to pages: every session reads them in place,
    # from one read-only mapping, so an output that is them must be a copy.
    weights = np.arange(2048, dtype=np.float32)
    elements = ", ".join(f"{value:.1f}" for value in weights)
    text = f"""<ir_version: 10, opset_import: ["" : 21]>
g (float[2048] x) => (float[2048] w, float[2048] y) <float[2048] w = {{{elements}}}> {{
  y = Add (x, w)
}}"""
    path = tmp_path / "model.onnx"
    onyx.save(onyx.parse_text(text), path, external_data="weights.bin")
    first = onyx.Session(onyx.load(path), threads=1)
    second = onyx.Session(onyx.load(path), threads=1)
    x = np.zeros(2048, np.float32)
    (given,) = first.run(["w"], {"x": x})
    assert given.flags.writeable
    given[:] = -1
    for session in (first, second):
        w, y = session.run(None, {"x": x})
        np.testing.assert_array_equal(w, weights)
        np.testing.assert_array_equal(y, weights)


def aligned_empty(shape, dtype, offset=0):
    """An array whose elements start `offset` bytes after a 64-byte boundary."""
    count = int(np.prod(shape))
    itemsize = np.dtype(dtype).itemsize
    raw = np.empty(count * itemsize + 128, np.uint8)
    start = (-raw.ctypes.data) % 64 + offset
    return raw[start : start + count * itemsize].view(dtype).reshape(shape)


@pytest.mark.parametrize("offset", [0, 4])
def test_a_bound_output_is_the_callers_array(arith_model, offset):
    # At a 64-byte boundary the kernel writes there; elsewhere the run copies in: either way
    # the caller gets its own array back, holding the output.
    session = onyx.Session(arith_model, threads=1)
    a = np.array([1, 2, 3], np.float32)
    b = np.array([4, 5, 6], np.float32)
    product = aligned_empty((3,), np.float32, offset)
    total, given = session.run(None, {"a": a, "b": b}, outputs={"product": product})
    assert given is product
    np.testing.assert_array_equal(product, a * b)
    np.testing.assert_array_equal(total, a + b)
    future = session.run_async(["product"], {"a": b, "b": b}, outputs={"product": product})
    (again,) = future.result()
    assert again is product
    np.testing.assert_array_equal(product, b * b)


def test_an_output_bound_to_its_input_carries_a_state_from_run_to_run():
    model = onyx.parse_text(
        """<ir_version: 10, opset_import: ["" : 21]>
g (float[1, 3] h) => (float[1, 3] next) <float[3, 3] w = {0, 1, 0, 0, 0, 1, 1, 0, 0}> {
  next = MatMul (h, w)
}"""
    )
    session = onyx.Session(model, threads=1)
    state = aligned_empty((1, 3), np.float32)
    state[:] = [[1, 2, 3]]
    for expected in ([3, 1, 2], [2, 3, 1], [1, 2, 3]):
        (given,) = session.run(None, {"h": state}, outputs={"next": state})
        assert given is state
        np.testing.assert_array_equal(state, [expected])


def test_a_bound_output_that_does_not_fit_raises_naming_it(arith_model):
    session = onyx.Session(arith_model, threads=1)
    feeds = {"a": np.ones(3, np.float32), "b": np.ones(3, np.float32)}
    wrong_shape = r"output 'product' is FLOAT\[3\], its bound array FLOAT\[4\]"
    with pytest.raises(onyx.OnyxError, match=wrong_shape):
        session.run(None, feeds, outputs={"product": np.empty(4, np.float32)})
    with pytest.raises(ValueError, match="no output 'z' to bind"):
        session.run(None, feeds, outputs={"z": np.empty(3, np.float32)})
    with pytest.raises(ValueError, match="writeable and C-contiguous"):
        session.run(None, feeds, outputs={"product": np.empty(6, np.float32)[::2]})
    with pytest.raises(TypeError, match="a NumPy array"):
        session.run(None, feeds, outputs={"product": [0.0, 0.0, 0.0]})
    (total, product) = session.run(None, feeds)
    np.testing.assert_array_equal(product, np.ones(3, np.float32))


TINY_DECODER = """<ir_version: 10, opset_import: ["" : 23]>
g (int64[batch, seq] input_ids, int64[batch, seq] position_ids,
   float[batch, 1, past, 4] past_k, float[batch, 1, past, 4] past_v)
  => (float[batch, seq, 5] logits, float[batch, 1, total, 4] present_k,
      float[batch, 1, total, 4] present_v)
  <float[5, 4] table = {0.1, -0.2, 0.3, 0.5, -0.4, 0.2, 0.1, -0.3, 0.6, 0.1, -0.5, 0.2, -0.1,
                        0.4, 0.2, -0.6, 0.3, -0.3, 0.1, 0.2},
   float[4, 5] head = {1, -1, 0.5, 0.2, -0.3, -0.5, 0.8, 0.1, -0.9, 0.4, 0.3, 0.2, -0.7, 0.6,
                       -0.1, 0.9, -0.4, 0.2, 0.1, -0.8}> {
  emb = Gather (table, input_ids)
  y, present_k, present_v = Attention <q_num_heads = 1, kv_num_heads = 1, is_causal = 1>
      (emb, emb, emb, , past_k, past_v)
  logits = MatMul (y, head)
}"""


def test_generate_hands_the_cache_on_and_chooses_what_whole_sequences_choose():
    model = onyx.parse_text(TINY_DECODER)
    # The text syntax takes no dots in names: renamed as exporters name the cache.
    for old, new in [("past_k", "past_key_values.0.key"), ("past_v", "past_key_values.0.value"),
                     ("present_k", "present.0.key"), ("present_v", "present.0.value")]:
        model.graph.value(old).name = new
    session = onyx.Session(model, threads=1)
    done = session.generate(prompt=[1, 2, 3], new_tokens=5)
    assert done["prompt"] == [1, 2, 3] and done["steps"] == 5 and len(done["tokens"]) == 6
    assert done["prompt_tokens_per_second"] > 0 and len(done["prompt_logits"]) == 5
    # Each choice again, from the whole sequence and an empty cache.
    sequence = [1, 2, 3]
    for token in done["tokens"]:
        n = len(sequence)
        empty = np.zeros((1, 1, 0, 4), np.float32)
        (logits, _, _) = session.run(None, {
            "input_ids": np.array([sequence], np.int64),
            "position_ids": np.arange(n, dtype=np.int64)[None],
            "past_key_values.0.key": empty, "past_key_values.0.value": empty})
        assert int(np.argmax(logits[0, -1])) == token
        sequence.append(token)
    # Past and new concatenated each step: the cache written anew, 2 x (4..8) x 4 floats.
    assert done["steps_cache_bytes_copied"] == sum(2 * n * 4 * 4 for n in range(4, 9))
    # A pseudo-random prompt of the shared generator.
    assert len(session.generate(prompt_tokens=4, new_tokens=0)["prompt"]) == 4


def test_int8_activations_round_products_by_int4_weights_within_their_bound():
    # [64, 32] int4 weights in blocks of 32 rows: with int8_activations each block of the
    # input is rounded to int8 (on a CPU with VNNI; elsewhere nothing changes), each input off
    # by at most half of max|x| / 127 of its block.
    rng = np.random.default_rng(3)
    codes = rng.integers(-7, 8, size=(64, 32)).astype(np.int8)
    scales = rng.uniform(0.01, 0.05, size=(2, 32)).astype(np.float32)
    text = """<ir_version: 10, opset_import: ["" : 21]>
g (float[1, 64] a) => (float[1, 32] y) {
  wf = DequantizeLinear <axis = 0, block_size = 32> (w, s)
  y = MatMul (a, wf)
}"""
    model = onyx.parse_text(text)
    model.graph.add_initializer(onyx.tensor(codes, dtype=onyx.DataType.INT4, name="w"), name="w")
    model.graph.add_initializer(onyx.tensor(scales, name="s"), name="s")
    a = rng.standard_normal((1, 64)).astype(np.float32)
    (exact,) = onyx.Session(model, threads=1).run(None, {"a": a})
    (rounded,) = onyx.Session(model, threads=1, int8_activations=True).run(None, {"a": a})
    weights = (codes.reshape(2, 32, 32).astype(np.float32) * scales[:, None, :]).reshape(64, 32)
    np.testing.assert_allclose(exact[0], a[0] @ weights, rtol=1e-5, atol=1e-5)
    step = np.repeat(np.abs(a[0]).reshape(2, 32).max(axis=1) / 127, 32)
    bound = (step / 2) @ np.abs(weights) + 1e-5
    assert np.all(np.abs(rounded[0] - exact[0]) <= bound)


def test_generate_refuses_what_is_no_decoder(conv_model):
    with pytest.raises(onyx.OnyxError, match="none the loop feeds|no input_ids"):
        onyx.Session(conv_model, threads=1).generate(prompt=[1], new_tokens=1)
