"""Tensors as NumPy arrays: zero-copy views of a model's bytes, and tensors made from arrays."""

import numpy as np
import pytest

import onyx


def test_numpy_is_a_read_only_view_of_the_file(tmp_path, conv_model):
    path = tmp_path / "net.onnx"
    onyx.save(conv_model, path)
    model = onyx.load(path)
    weights = model.graph.initializers["w"].const_value
    first = weights.numpy()
    second = weights.numpy()
    assert first.dtype == np.float32 and first.shape == (4, 3, 3, 3)
    assert np.shares_memory(first, second)  # both views of the mapped file, no copy
    assert not first.flags.writeable
    with pytest.raises(ValueError):
        first[0, 0, 0, 0] = 1.0
    assert first[0, 0, 0, 0] == 0.5
    assert np.asarray(weights).shape == (4, 3, 3, 3)


def test_view_keeps_the_model_alive(tmp_path, conv_model):
    path = tmp_path / "net.onnx"
    onyx.save(conv_model, path)
    array = onyx.load(path).graph.initializers["b"].const_value.numpy()
    # The model object is gone; the array's base keeps its memory mapped.
    np.testing.assert_allclose(array, [0.1, -0.2, 0.3, -0.4], rtol=1e-6)


@pytest.mark.parametrize(
    "array",
    [
        np.arange(6, dtype=np.float32).reshape(2, 3),
        np.arange(6, dtype=np.int64),
        np.array([True, False]),
        np.array([1.5, -2.0], dtype=np.float16),
        np.array([1.5, -2.0], dtype=np.float64),
        np.array([3, 250], dtype=np.uint8),
        np.array(7, dtype=np.int32),
        np.array([1 + 2j], dtype=np.complex64),
    ],
)
def test_tensor_round_trip(array):
    tensor = onyx.tensor(array, name="t")
    assert tensor.name == "t"
    assert tensor.shape == array.shape
    result = tensor.numpy()
    assert result.dtype == array.dtype
    np.testing.assert_array_equal(result, array)


def test_tensor_types_numpy_lacks_travel_as_bits():
    bits = np.array([0x3F80, 0xC000], dtype=np.uint16)  # bfloat16 1.0 and -2.0
    tensor = onyx.tensor(bits, dtype=onyx.DataType.BFLOAT16)
    assert tensor.dtype == onyx.DataType.BFLOAT16
    np.testing.assert_array_equal(tensor.numpy(), bits)
    with pytest.raises(TypeError):
        onyx.tensor(np.zeros(2, np.float32), dtype=onyx.DataType.INT64)


def test_string_tensors():
    tensor = onyx.tensor(np.array(["a", "bc"], dtype=object))
    assert tensor.dtype == onyx.DataType.STRING
    assert tensor.numpy().tolist() == ["a", "bc"]


def test_typed_field_data_is_converted():
    model = onyx.parse_text(
        """
        <ir_version: 8, opset_import: ["" : 17]>
        g (int32[3] x) => (int32[3] y) <int32[3] k = {1, -2, 3}> { y = Add (x, k) }
        """
    )
    np.testing.assert_array_equal(model.graph.initializers["k"].const_value.numpy(), [1, -2, 3])


def test_bad_arrays_are_refused():
    with pytest.raises(TypeError):
        onyx.tensor(np.zeros(2, dtype=np.float128) if hasattr(np, "float128") else object())
    with pytest.raises(TypeError):
        onyx.tensor(np.array([object()]))
