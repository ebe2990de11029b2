"""What an operand is, read without touching the GPU: its pointer, shape, dtype and layout from
__cuda_array_interface__, DLPack or NumPy. Every check here raises one line."""
import ctypes
import sys

from ._errors import SgemmError, SgemmTypeError

# DLPack device types (dlpack.h, DLDeviceType)
KDL_CPU, KDL_CUDA, KDL_CUDA_HOST, KDL_CUDA_MANAGED = 1, 2, 3, 13
DL_DEVICE_NAMES = {1: "CPU", 2: "CUDA", 3: "CUDA host", 4: "OpenCL", 7: "Vulkan", 8: "Metal",
                   9: "VPI", 10: "ROCm", 11: "ROCm host", 13: "CUDA managed", 14: "oneAPI"}
DL_CODE_NAMES = {0: "int", 1: "uint", 2: "float", 3: "opaque", 4: "bfloat", 5: "complex", 6: "bool"}
INT_MAX = 2**31 - 1


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    """The first member of DLManagedTensor, which a "dltensor" capsule points to."""
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_valid = ctypes.pythonapi.PyCapsule_IsValid
_capsule_valid.restype = ctypes.c_int
_capsule_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]


class Operand:
    """One matrix as the library needs it. kind: "device" (a GPU pointer) or "numpy" (host
    memory to copy). keep: what must stay alive while the pointer is used (a DLPack capsule)."""

    def __init__(self, name, obj, kind, ptr, shape, readonly=False, keep=None):
        self.name, self.obj, self.kind, self.ptr = name, obj, kind, ptr
        self.shape, self.readonly, self.keep = tuple(int(d) for d in shape), readonly, keep

    @property
    def size(self):
        return self.shape[0] * self.shape[1] if len(self.shape) == 2 else 0


def _numpy():
    return sys.modules.get("numpy")


def is_numpy(x):
    np = _numpy()
    return np is not None and isinstance(x, np.ndarray)


def _typestr_name(typestr):
    np = _numpy()
    if np is not None:
        try:
            name = np.dtype(typestr).name
            swapped = str(typestr)[:1] == (">" if sys.byteorder == "little" else "<")
            return f"{name} of the other byte order ({typestr})" if swapped else name
        except TypeError:
            pass
    return str(typestr)


def _require_float32(name, typestr):
    """One line unless typestr is float32 in the GPU's byte order (little-endian; every host
    CUDA runs on is too, so "=f4" is it)."""
    typestr = str(typestr)
    if typestr == "<f4" or (typestr == "=f4" and sys.byteorder == "little"):
        return
    if typestr[1:] == "f4":  # float32 all right, but its bytes in the other order: say that
        raise SgemmTypeError(f"{name} is float32 in big-endian byte order ({typestr}); the GPU reads "
                             f"little-endian: {name}.astype('<f4') converts it")
    raise SgemmTypeError(f"{name} has dtype {_typestr_name(typestr)}; float32 required")


def _require_2d(name, shape):
    if len(shape) != 2:
        want = {"A": "M x K", "B": "K x N", "C": "M x N"}.get(name, "2-D")
        raise SgemmError(f"{name} must be 2-D ({want}); got shape {tuple(shape)}")
    if any(d > INT_MAX for d in shape):
        raise SgemmError(f"{name} has shape {tuple(shape)}; each size must be below 2^31")


def _require_row_major(name, shape, strides, unit):
    """strides in units of `unit` bytes: row-major contiguous, sizes-of-1 dimensions free."""
    rows, cols = shape
    ok = (cols <= 1 or strides[1] == 4 // unit) and (rows <= 1 or strides[0] == cols * 4 // unit)
    if not ok:
        what = "bytes" if unit == 1 else "elements"
        raise SgemmError(f"{name} is not C-contiguous (shape {tuple(shape)}, strides {tuple(strides)} {what}); "
                         "pass a row-major contiguous array (.contiguous(), numpy.ascontiguousarray)")


def _from_cai(name, x, cai):
    if not isinstance(cai, dict) or "shape" not in cai or "typestr" not in cai or "data" not in cai:
        raise SgemmTypeError(f"{name}'s __cuda_array_interface__ lacks shape, typestr or data")
    shape = tuple(cai["shape"])
    _require_float32(name, cai["typestr"])
    _require_2d(name, shape)
    if cai.get("mask") is not None:
        raise SgemmTypeError(f"{name} is a masked array; pass a plain float32 array")
    strides = cai.get("strides")
    if strides is not None:
        _require_row_major(name, shape, tuple(strides), 1)
    ptr, readonly = cai["data"]
    if not ptr and shape[0] * shape[1] > 0:
        raise SgemmError(f"{name} has a null data pointer")
    return Operand(name, x, "device", ptr or 0, shape, bool(readonly))


def _from_dlpack(name, x):
    capsule = x.__dlpack__()
    if not _capsule_valid(capsule, b"dltensor"):
        raise SgemmTypeError(f"{name}.__dlpack__() did not return a DLPack capsule")
    t = DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    dt = t.dtype
    if not (dt.code == 2 and dt.bits == 32 and dt.lanes == 1):
        kind = DL_CODE_NAMES.get(dt.code, f"code {dt.code} ")
        lanes = f"x{dt.lanes}" if dt.lanes != 1 else ""
        raise SgemmTypeError(f"{name} has dtype {kind}{dt.bits}{lanes}; float32 required")
    shape = tuple(t.shape[i] for i in range(t.ndim))
    _require_2d(name, shape)
    if t.strides:
        _require_row_major(name, shape, tuple(t.strides[i] for i in range(t.ndim)), 4)
    ptr = (t.data or 0) + t.byte_offset
    if not ptr and shape[0] * shape[1] > 0:
        raise SgemmError(f"{name} has a null data pointer")
    return Operand(name, x, "device", ptr, shape, keep=capsule)


def _from_numpy(name, x):
    _require_float32(name, x.dtype.str)
    _require_2d(name, x.shape)
    if not x.flags.c_contiguous:
        raise SgemmError(f"{name} is not C-contiguous (shape {x.shape}, strides {x.strides} bytes); "
                         "pass a row-major contiguous array (numpy.ascontiguousarray)")
    return Operand(name, x, "numpy", None, x.shape, readonly=not x.flags.writeable)


def describe(name, x):
    """The Operand of x, or one line saying why x cannot be used; never touches the GPU."""
    try:
        cai = x.__cuda_array_interface__
    except AttributeError:
        cai = None
    except Exception as e:  # e.g. a PyTorch tensor that requires grad
        raise SgemmTypeError(f"{name}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    if cai is not None:
        return _from_cai(name, x, cai)
    if is_numpy(x):
        return _from_numpy(name, x)
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        device_type, _ = x.__dlpack_device__()
        device_type = int(device_type)
        if device_type in (KDL_CUDA, KDL_CUDA_MANAGED):
            return _from_dlpack(name, x)
        if device_type in (KDL_CPU, KDL_CUDA_HOST):
            raise SgemmTypeError(f"{name} is a CPU tensor; pass a CUDA tensor or a NumPy array")
        where = DL_DEVICE_NAMES.get(device_type, f"DLPack device type {device_type}")
        raise SgemmTypeError(f"{name} is on a {where} device; pass a CUDA tensor or a NumPy array")
    raise SgemmTypeError(f"{name} is a {type(x).__module__}.{type(x).__qualname__}; pass a CUDA array "
                         "(__cuda_array_interface__ or DLPack) or a NumPy array")


def empty_like_device(a, shape):
    """A new float32 device array of `shape` from the same library as the device operand a."""
    module = type(a.obj).__module__.split(".")[0]
    if module == "torch":
        import torch
        return torch.empty(shape, dtype=torch.float32, device=a.obj.device)
    if module == "cupy":
        import cupy
        with a.obj.device:
            return cupy.empty(shape, dtype=cupy.float32)
    if module == "numba":
        from numba import cuda
        import numpy
        return cuda.device_array(shape, dtype=numpy.float32)
    raise SgemmTypeError(f"pass C: sgemm_steps cannot make a new array of type "
                         f"{type(a.obj).__module__}.{type(a.obj).__qualname__}")
