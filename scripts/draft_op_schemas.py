#!/usr/bin/python3
"""Drafts onyx's operator signatures from the ONNX specification's operator changelogs.

The signatures in src/ops/<family>/<op>.cc are facts about the ONNX operators (names,
types, counts, defaults, versions). This script reads them, at run time, from the
changelogs in a checkout of the onnx repository (docs/Changelog.md and
docs/Changelog-ml.md; the preview and training domains are in Changelog.md) and prints
them in onyx's table format. Nothing of the documents' prose is used.

Commands (see docs/ops.md):
  write DIR        write an op file for every operator that has none yet under DIR
                   (src/ops), and rewrite DIR/operator_index.inc; --force rewrites all
  print OP         print one operator's table (--domain D), to paste into its file
  compare ONYX     run `ONYX ops --json` and report every difference from the documents
  summary          operators and versions per domain, the highest opset of each

Only the standard library; /usr/bin/python3.
"""

import argparse
import json
import os
import re
import struct
import subprocess
import sys

DEFAULT_MIRROR = "/work/.mirror/onnx+onnx/repo"

# The five standard domains: the name onyx uses, the C++ namespace of their op files, and
# the name of their op-family folder when the domain has one of its own.
DOMAINS = {
    "ai.onnx": ("ai_onnx", None),
    "ai.onnx.ml": ("ai_onnx_ml", "ml"),
    "ai.onnx.training": ("ai_onnx_training", "training"),
    "ai.onnx.preview": ("ai_onnx_preview", "preview"),
    "ai.onnx.preview.training": ("ai_onnx_preview_training", "training"),
}
DOMAIN_CONSTANTS = {
    "ai.onnx": "kOnnxDomain",
    "ai.onnx.ml": "kMlDomain",
    "ai.onnx.training": "kTrainingDomain",
    "ai.onnx.preview": "kPreviewDomain",
    "ai.onnx.preview.training": "kPreviewTrainingDomain",
}

# Families of the ai.onnx operators: the folder each op file lives in. The grouping follows
# the one the ONNX project uses for its definitions.
FAMILIES = {
    "controlflow": "If Loop Scan",
    "generator": "Bernoulli Constant ConstantOfShape EyeLike Multinomial RandomNormal "
    "RandomNormalLike RandomUniform RandomUniformLike Range",
    "image": "ImageDecoder",
    "logical": "And BitShift BitwiseAnd BitwiseNot BitwiseOr BitwiseXor Equal Greater "
    "GreaterOrEqual Less LessOrEqual Not Or Xor",
    "math": "Abs Acos Acosh Add Asin Asinh Atan Atanh BlackmanWindow Ceil Celu Clip Cos Cosh "
    "CumProd CumSum DFT Det Div Einsum Elu Erf Exp Expand Floor Gelu Gemm HammingWindow "
    "HannWindow HardSigmoid HardSwish Hardmax LeakyRelu Log LogSoftmax MatMul MatMulInteger "
    "Max Mean MelWeightMatrix Min Mish Mod Mul Neg NegativeLogLikelihoodLoss PRelu Pow "
    "QLinearMatMul Reciprocal Relu Round STFT Selu Sigmoid Sign Sin Sinh Softmax "
    "SoftmaxCrossEntropyLoss Softplus Softsign Sqrt Sub Sum SwiGLU Swish Tan Tanh "
    "ThresholdedRelu TopK",
    "nn": "Attention AveragePool BatchNormalization CausalConvWithState Col2Im Conv ConvInteger "
    "ConvTranspose DeformConv Dropout Flatten GlobalAveragePool GlobalLpPool GlobalMaxPool "
    "GroupNormalization InstanceNormalization LRN LayerNormalization LinearAttention "
    "LpNormalization LpPool MaxPool MaxRoiPool MaxUnpool MeanVarianceNormalization QLinearConv "
    "RMSNormalization RotaryEmbedding Shrink TfIdfVectorizer",
    "object_detection": "NonMaxSuppression RoiAlign",
    "optional": "Optional OptionalGetElement OptionalHasElement",
    "quantization": "DequantizeLinear DynamicQuantizeLinear QuantizeLinear",
    "reduction": "ArgMax ArgMin ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp ReduceMax "
    "ReduceMean ReduceMin ReduceProd ReduceSum ReduceSumSquare",
    "rnn": "GRU LSTM RNN",
    "sequence": "ConcatFromSequence SequenceAt SequenceConstruct SequenceEmpty SequenceErase "
    "SequenceInsert SequenceLength SequenceMap SplitToSequence",
    "tensor": "AffineGrid BitCast Cast CastLike CenterCropPad Compress Concat DepthToSpace "
    "Gather GatherElements GatherND GridSample Identity IsInf IsNaN NonZero OneHot Pad "
    "Reshape Resize ReverseSequence Scatter ScatterElements ScatterND Shape Size Slice "
    "SpaceToDepth Split Squeeze TensorScatter Tile Transpose Trilu Unique Unsqueeze Upsample "
    "Where",
    "string": "RegexFullMatch StringConcat StringNormalizer StringSplit",
}
FAMILY_OF = {op: family for family, ops in FAMILIES.items() for op in ops.split()}

# File names where splitting the CamelCase name at every capital reads badly.
FILE_NAMES = {
    "IsNaN": "is_nan",
    "MatMul": "matmul",
    "MatMulInteger": "matmul_integer",
    "QLinearMatMul": "qlinear_matmul",
    "QLinearConv": "qlinear_conv",
    "PRelu": "prelu",
    "CumSum": "cumsum",
    "CumProd": "cumprod",
    "SwiGLU": "swiglu",
    "TfIdfVectorizer": "tfidf_vectorizer",
    "Col2Im": "col2im",
}

# The element types of tensors, in TensorProto.DataType order (the bit of type e is 1 << e).
ELEMENT_CODES = {
    "float": 1, "uint8": 2, "int8": 3, "uint16": 4, "int16": 5, "int32": 6, "int64": 7,
    "string": 8, "bool": 9, "float16": 10, "double": 11, "uint32": 12, "uint64": 13,
    "complex64": 14, "complex128": 15, "bfloat16": 16, "float8e4m3fn": 17,
    "float8e4m3fnuz": 18, "float8e5m2": 19, "float8e5m2fnuz": 20, "uint4": 21, "int4": 22,
    "float4e2m1": 23, "float8e8m0": 24, "uint2": 25, "int2": 26,
}

# Named element sets (src/ops/schema_dsl.h has the same): all element types a given IR
# version has. Used when a constraint allows exactly one of them.
_IR3 = ("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double string bool "
        "complex64 complex128")
_IR4 = _IR3 + " bfloat16"
_IR9 = _IR4 + " float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz"
_IR10 = _IR9 + " uint4 int4"
_IR11 = _IR10 + " float4e2m1"
_IR12 = _IR11 + " float8e8m0"
_IR13 = _IR12 + " uint2 int2"
NAMED_SETS = [
    ("kIr3Types", _IR3), ("kIr4Types", _IR4), ("kIr9Types", _IR9), ("kIr10Types", _IR10),
    ("kIr11Types", _IR11), ("kIr12Types", _IR12), ("kIr13Types", _IR13),
]

ATTRIBUTE_KINDS = {
    "int": "kInt", "float": "kFloat", "string": "kString", "tensor": "kTensor",
    "graph": "kGraph", "sparse_tensor": "kSparseTensor", "type_proto": "kTypeProto",
    "list of ints": "kInts", "list of floats": "kFloats", "list of strings": "kStrings",
    "list of tensors": "kTensors", "list of graphs": "kGraphs",
    "list of sparse tensors": "kSparseTensors", "list of type protos": "kTypeProtos",
}

# Where the documents fall short of the definitions, the facts from the definitions:
# - they print float defaults rounded to five decimals;
FLOAT_DEFAULTS = {
    ("ai.onnx", "Selu", 6, "alpha"): "1.67326319217681884765625",
    ("ai.onnx", "Selu", 6, "gamma"): "1.05070102214813232421875",
    ("ai.onnx", "Selu", 22, "alpha"): "1.67326319217681884765625",
    ("ai.onnx", "Selu", 22, "gamma"): "1.05070102214813232421875",
    ("ai.onnx", "Clip", 6, "min"): "lowest",
    ("ai.onnx", "Clip", 6, "max"): "max",
    ("ai.onnx.preview.training", "Adagrad", 1, "epsilon"): "1e-6",
    ("ai.onnx.preview.training", "Adam", 1, "epsilon"): "1e-6",
}
# - they list no signature for a deprecated version. These keep the signature of the
#   version before them, except GroupNormalization 18, which has none before it.
GROUP_NORMALIZATION_18 = {
    "attributes": [
        {"name": "epsilon", "kind": "float", "required": False, "default": "1e-05"},
        {"name": "num_groups", "kind": "int", "required": True, "default": None},
    ],
    "inputs": [
        {"name": n, "type": "T", "option": "single", "min_count": 1, "homogeneous": True}
        for n in ("X", "scale", "bias")
    ],
    "outputs": [{"name": "Y", "type": "T", "option": "single", "min_count": 1,
                 "homogeneous": True}],
    "constraints": [{"name": "T", "types": ["tensor(float16)", "tensor(float)",
                                            "tensor(double)", "tensor(bfloat16)"]}],
}


def read_mirror(mirror, path):
    return subprocess.run(["git", "-C", mirror, "show", "HEAD:" + path], check=True,
                          capture_output=True, text=True).stdout


# ---- reading the changelogs -------------------------------------------------------------

ENTRY = re.compile(r'^### <a name="([^"]+)-(\d+)"></a>\*\*[^*]+\*\*( \(deprecated\))?')
DOMAIN_HEADING = re.compile(r"^# (ai\.onnx[a-z.]*)")
SECTION = re.compile(r"^#### (Attributes|Inputs|Outputs|Type Constraints)(?: \((\d+) - (\d+|&#8734;)\))?")
ITEM = re.compile(r"^<dt><tt>([^<]+)</tt>(?: \(([^)]*)\))? : (.*)</dt>$")


def parse_changelog(text):
    """Yields one dict per operator version, in document order."""
    domain = None
    entry = None
    section = None
    for line in text.splitlines():
        heading = DOMAIN_HEADING.match(line)
        if heading:
            domain = heading.group(1)
            continue
        match = ENTRY.match(line)
        if match:
            if entry:
                yield entry
            full_name, version, deprecated = match.groups()
            name = full_name[len(domain) + 1:] if full_name.startswith(domain + ".") else full_name
            entry = {"domain": domain, "name": name, "since": int(version),
                     "deprecated": bool(deprecated), "attributes": [], "inputs": [],
                     "outputs": [], "constraints": [], "ranges": {}}
            section = None
            continue
        if line.startswith("## ") and entry:
            yield entry
            entry = None
            continue
        if entry is None:
            continue
        match = SECTION.match(line)
        if match:
            section = match.group(1)
            if match.group(2):
                high = match.group(3)
                entry["ranges"][section] = (int(match.group(2)),
                                            None if high == "&#8734;" else int(high))
            continue
        if line.startswith("#### "):
            section = None
            continue
        match = ITEM.match(line)
        if not match or section is None:
            continue
        item_name, options, rest = match.groups()
        if section == "Attributes":
            entry["attributes"].append(parse_attribute(item_name, options, rest))
        elif section in ("Inputs", "Outputs"):
            entry[section.lower()].append(parse_formal(item_name, options, rest))
        else:
            entry["constraints"].append({"name": item_name, "types": split_types(rest)})
    if entry:
        yield entry


def parse_attribute(name, options, rest):
    match = re.match(r"^(.*?)(?: \((required|default is (.*))\))?$", rest)
    kind_text, flag, default = match.groups()
    if kind_text not in ATTRIBUTE_KINDS:
        raise SystemExit(f"attribute {name}: unknown kind {kind_text!r}")
    return {"name": name, "kind": kind_text, "required": flag == "required",
            "default": default}


def parse_formal(name, options, type_text):
    flags = [flag.strip() for flag in (options or "").split(",") if flag.strip()]
    option = "single"
    if "optional" in flags:
        option = "optional"
    if "variadic" in flags:
        option = "variadic"
    return {"name": name, "type": type_text.strip(), "option": option, "min_count": 1,
            "homogeneous": "heterogeneous" not in flags}


def split_types(text):
    """Splits `tensor(a), seq(map(b, c))` at the commas outside parentheses."""
    types, depth, current = [], 0, ""
    for char in text:
        if char == "," and depth == 0:
            types.append(current.strip())
            current = ""
            continue
        depth += char == "("
        depth -= char == ")"
        current += char
    if current.strip():
        types.append(current.strip())
    return types


def arity_range(formals):
    """The [min, max] number of actual arguments, the way ONNX counts them (max None:
    unbounded)."""
    low = high = 0
    for formal in formals:
        if formal["option"] == "single":
            high += 1
            low = high
        elif formal["option"] == "optional":
            high += 1
        else:
            low = high + formal["min_count"]
            high = None
            break
    return low, high


def finish(entry):
    """Settles what the document leaves implicit: the minimum count of a variadic (from the
    range heading) and the literal types used as formal types. Checks the counts."""
    for kind in ("inputs", "outputs"):
        formals = entry[kind]
        heading = entry["ranges"].get(kind.capitalize())
        if formals and formals[-1]["option"] == "variadic":
            if heading is None:
                raise SystemExit(f"{entry['name']}-{entry['since']}: variadic without a range")
            formals[-1]["min_count"] = heading[0] - (len(formals) - 1)
        for formal in formals[:-1]:
            if formal["option"] == "variadic":
                raise SystemExit(f"{entry['name']}-{entry['since']}: variadic not last")
        computed = arity_range(formals)
        expected = heading if heading else (len(formals), len(formals))
        if computed != expected:
            raise SystemExit(f"{entry['name']}-{entry['since']} {kind}: counts {computed} "
                             f"but the document says {expected}")
    declared = {c["name"] for c in entry["constraints"]}
    for formal in entry["inputs"] + entry["outputs"]:
        if formal["type"] not in declared:
            if "(" not in formal["type"]:
                raise SystemExit(f"{entry['name']}: unknown type {formal['type']}")
            entry["constraints"].append({"name": formal["type"], "types": [formal["type"]]})
            declared.add(formal["type"])
    entry["attributes"].sort(key=lambda a: a["name"])


def load_operators(mirror):
    """{(domain, name): [version dicts, ascending]}, with the fixes above applied."""
    entries = list(parse_changelog(read_mirror(mirror, "docs/Changelog.md")))
    entries += list(parse_changelog(read_mirror(mirror, "docs/Changelog-ml.md")))
    operators = {}
    for entry in entries:
        operators.setdefault((entry["domain"], entry["name"]), []).append(entry)
    for (domain, name), versions in operators.items():
        versions.sort(key=lambda e: e["since"])
        for index, entry in enumerate(versions):
            documented = entry["inputs"] or entry["outputs"] or entry["attributes"]
            if entry["deprecated"] and not documented:
                if (domain, name, entry["since"]) == ("ai.onnx", "GroupNormalization", 18):
                    source = GROUP_NORMALIZATION_18
                elif index > 0:
                    source = versions[index - 1]
                else:
                    raise SystemExit(f"{name}-{entry['since']}: deprecated, no signature")
                for key in ("attributes", "inputs", "outputs", "constraints"):
                    entry[key] = json.loads(json.dumps(source[key]))
                entry["ranges"] = dict(source.get("ranges", {}))
            finish(entry)
            for attribute in entry["attributes"]:
                key = (domain, name, entry["since"], attribute["name"])
                if key in FLOAT_DEFAULTS:
                    attribute["default"] = FLOAT_DEFAULTS[key]
    return operators


def highest_opsets(mirror):
    """The highest version of each domain's operator set, from the section headings."""
    highest = {}
    for path in ("docs/Changelog.md", "docs/Changelog-ml.md"):
        domain = None
        for line in read_mirror(mirror, path).splitlines():
            heading = DOMAIN_HEADING.match(line)
            if heading:
                domain = heading.group(1)
            match = re.match(r"^## Version (\d+) of ", line)
            if match and domain:
                highest[domain] = max(highest.get(domain, 0), int(match.group(1)))
    return highest


# ---- writing C++ --------------------------------------------------------------------------


def file_name(name):
    if name in FILE_NAMES:
        return FILE_NAMES[name]
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name)
    return snake.lower()


def family_of(domain, name):
    folder = DOMAINS[domain][1]
    if folder:
        return folder
    if name not in FAMILY_OF:
        raise SystemExit(f"{name}: no family; add it to FAMILIES in {sys.argv[0]}")
    return FAMILY_OF[name]


def cpp_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def float_literal(text):
    """The shortest C++ float literal that gives the same float32 as `text`."""
    if text == "lowest":
        return "-3.40282347e+38f"
    if text == "max":
        return "3.40282347e+38f"
    value = struct.unpack("f", struct.pack("f", float(text.strip("()"))))[0]
    for digits in range(1, 12):
        candidate = f"{value:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(candidate)))[0] == value:
            break
    if "e" not in candidate and "." not in candidate:
        candidate += ".0"
    if value == 0 and str(float(text.strip("()"))).startswith("-"):
        candidate = "-0.0"
    return candidate + "f"


def default_list(text):
    return [item.strip().strip("'\"") for item in text.strip("[]").split(",") if item.strip()]


def attribute_cpp(attribute):
    name = cpp_string(attribute["name"])
    kind = ATTRIBUTE_KINDS[attribute["kind"]]
    default = attribute["default"]
    if attribute["required"]:
        return f"required({name}, {kind})"
    if default is None:
        return f"attr({name}, {kind})"
    if kind == "kInt":
        return f"attr({name}, {int(default)})"
    if kind == "kFloat":
        return f"attr({name}, {float_literal(default)})"
    if kind == "kString":
        return f"attr({name}, {cpp_string(default)})"
    if kind == "kInts":
        values = ", ".join(str(int(v)) for v in default_list(default))
        return f"{{.name = {name}, .kind = kInts, .has_default = true, .default_ints = {{{values}}}}}"
    if kind == "kStrings":
        values = ", ".join(cpp_string(v) for v in default_list(default))
        return (f"{{.name = {name}, .kind = kStrings, .has_default = true, "
                f".default_strings = {{{values}}}}}")
    raise SystemExit(f"attribute {attribute['name']}: no way to write a default of {kind}")


def formal_cpp(formal):
    name, type_name = cpp_string(formal["name"]), cpp_string(formal["type"])
    if formal["option"] == "optional":
        return f"optional({name}, {type_name})"
    if formal["option"] == "variadic":
        helper = "variadic" if formal["homogeneous"] else "heterogeneous"
        return f"{helper}({name}, {type_name}, {formal['min_count']})"
    return f"{{{name}, {type_name}}}"


def element_set_cpp(elements):
    names = set(elements)
    for constant, members in NAMED_SETS:
        if names == set(members.split()):
            return constant
    return cpp_string(" ".join(elements))


TYPE_FORMS = [
    ("tensor", re.compile(r"^tensor\((\w+)\)$")),
    ("sequence", re.compile(r"^seq\(tensor\((\w+)\)\)$")),
    ("optionalTensor", re.compile(r"^optional\(tensor\((\w+)\)\)$")),
    ("optionalSequence", re.compile(r"^optional\(seq\(tensor\((\w+)\)\)\)$")),
]


def type_set_cpp(types):
    groups = {form: [] for form, _ in TYPE_FORMS}
    others = []
    for type_text in types:
        for form, pattern in TYPE_FORMS:
            match = pattern.match(type_text)
            if match and match.group(1) in ELEMENT_CODES:
                groups[form].append(match.group(1))
                break
        else:
            others.append(type_text)
    parts = [f"{form}({element_set_cpp(elements)})" for form, elements in groups.items()
             if elements]
    if others:
        parts.append(f"types({cpp_string(', '.join(others))})")
    return " | ".join(parts)


LIST_PARTS = [
    ("inputs", "Formals", "kInputs"),
    ("outputs", "Formals", "kOutputs"),
    ("attributes", "Attributes", "kAttributes"),
    ("constraints", "Constraints", "kConstraints"),
]


def part_cpp(entry, part, type_names):
    if part in ("inputs", "outputs"):
        items = [formal_cpp(f) for f in entry[part]]
    elif part == "attributes":
        items = [attribute_cpp(a) for a in entry[part]]
    else:
        items = []
        for constraint in entry[part]:
            types = type_set_cpp(constraint["types"])
            items.append(f"{{{cpp_string(constraint['name'])}, {type_names.get(types, types)}}}")
    return "{" + ", ".join(items) + "}" if items else None


def shared_type_sets(versions):
    """Long type-set expressions used more than once in a file, named after the constraint
    and version that has them first (kT1Types9): {expression: name}, and their definitions."""
    uses = []
    for entry in versions:
        for constraint in entry["constraints"]:
            uses.append((type_set_cpp(constraint["types"]), constraint["name"], entry["since"]))
    names, definitions = {}, []
    for expression, constraint, since in uses:
        if expression in names or len(expression) < 40:
            continue
        if sum(1 for use in uses if use[0] == expression) < 2 or "(" in constraint:
            continue
        name = f"k{constraint}Types{since}"
        names[expression] = name
        definitions.append(f"constexpr TypeSet {name} = {expression};")
    return names, definitions


def symbol(name):
    return "k" + name


def operator_cpp(domain, name, versions):
    """An op file. A list that several versions share is written once, as a constant named
    after the first version that has it (kInputs11), so that what a version changes shows."""
    namespace = DOMAINS[domain][0]
    type_names, shared = shared_type_sets(versions)
    version_fields = [[] for _ in versions]
    for part, list_type, prefix in LIST_PARTS:
        texts = [part_cpp(entry, part, type_names) for entry in versions]
        for index, (entry, text) in enumerate(zip(versions, texts)):
            if text is None:
                continue
            if texts.count(text) > 1:
                first = versions[texts.index(text)]["since"]
                constant = f"{prefix}{first}"
                if texts.index(text) == index:
                    shared.append(f"constexpr {list_type} {constant} = {text};")
                version_fields[index].append(f".{part} = {constant}")
            else:
                version_fields[index].append(f".{part} = {text}")
    since = ", ".join(str(v["since"]) for v in versions)
    lines = [
        f"// {name} ({domain}), versions {since}.",
        "//",
        "// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;",
        "// see docs/ops.md for the format and how to change it.",
        '#include "ops/schema_dsl.h"',
        "",
        f"namespace onyx::ops::{namespace} {{",
        "using namespace dsl;",
        "",
    ]
    if shared:
        lines += shared + [""]
    lines += [
        f"extern const Operator {symbol(name)};",
        f"constexpr Operator {symbol(name)}{{",
        f"    .domain = {DOMAIN_CONSTANTS[domain]},",
        f"    .name = {cpp_string(name)},",
        "    .versions = {",
    ]
    for entry, fields in zip(versions, version_fields):
        head = [f".since_version = {entry['since']}"]
        if entry["deprecated"]:
            head.append(".deprecated = true")
        lines.append("        {" + ", ".join(head + fields) + "},")
    lines += [
        "    }};",
        f"static_assert(isWellFormed({symbol(name)}));",
        "",
        f"}}  // namespace onyx::ops::{namespace}",
        "",
    ]
    return "\n".join(lines)


def index_cpp(operators):
    lines = [
        "// Every operator onyx has a signature for: one line per op file under src/ops.",
        "// Written by scripts/draft_op_schemas.py; keep it sorted by domain, then name.",
        "// tests/ops/registry_test.cc checks that it lists every op file.",
        "//",
        "// ONYX_OPERATOR(namespace, symbol, domain, name)",
    ]
    for domain, name in sorted(operators, key=lambda key: (list(DOMAINS).index(key[0]), key[1])):
        namespace = DOMAINS[domain][0]
        lines.append(f"ONYX_OPERATOR({namespace}, {symbol(name)}, {cpp_string(domain)}, "
                     f"{cpp_string(name)})")
    return "\n".join(lines) + "\n"


# ---- comparing with onyx ------------------------------------------------------------------


def expected_json(entry):
    """An operator version in the shape `onyx ops --json` prints it."""
    def formal(f):
        out = {"name": f["name"], "type": f["type"], "option": f["option"]}
        if f["option"] == "variadic":
            out["min_count"] = f["min_count"]
            out["homogeneous"] = f["homogeneous"]
        return out

    def attribute(a):
        kind = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", ATTRIBUTE_KINDS[a["kind"]][1:]).lower()
        return {"name": a["name"], "kind": kind, "required": a["required"]}

    return {
        "since_version": entry["since"],
        "deprecated": entry["deprecated"],
        "inputs": [formal(f) for f in entry["inputs"]],
        "outputs": [formal(f) for f in entry["outputs"]],
        "attributes": [attribute(a) for a in entry["attributes"]],
        "constraints": {c["name"]: sorted(c["types"]) for c in entry["constraints"]},
    }


def float32(value):
    return struct.unpack("f", struct.pack("f", value))[0]


def same_default(attribute, mine):
    """Whether onyx's default (as `onyx ops --json` prints it) is the documented one."""
    text = attribute["default"]
    if text is None or mine is None:
        return text is None and mine is None
    kind = ATTRIBUTE_KINDS[attribute["kind"]]
    if kind == "kInt":
        return int(text) == mine
    if kind == "kFloat":
        literal = float_literal(text)[:-1]
        return float32(float(literal)) == float32(mine)
    if kind == "kString":
        return text == mine
    if kind == "kInts":
        return [int(v) for v in default_list(text)] == mine
    if kind == "kStrings":
        return default_list(text) == mine
    return False


def compare(operators, onyx):
    differences = 0
    seen = set()
    for domain in DOMAINS:
        listing = json.loads(subprocess.run([onyx, "ops", "--domain", domain, "--all-versions",
                                             "--json"], check=True, capture_output=True,
                                            text=True).stdout)
        for op in listing["operator_sets"][0]["operators"]:
            key = (domain, op["name"])
            seen.add(key)
            if key not in operators:
                print(f"{domain} {op['name']}: in onyx, not in the documents")
                differences += 1
                continue
            documented = {e["since"]: e for e in operators[key]}
            mine = {v["since_version"]: v for v in op["versions"]}
            if sorted(documented) != sorted(mine):
                print(f"{domain} {op['name']}: versions {sorted(mine)} in onyx, "
                      f"{sorted(documented)} in the documents")
                differences += 1
                continue
            for since, version in mine.items():
                expected = expected_json(documented[since])
                actual = {key: version[key] for key in expected}
                actual["attributes"] = [{k: a[k] for k in ("name", "kind", "required")}
                                        for a in version["attributes"]]
                actual["constraints"] = {c["name"]: sorted(c["types"])
                                         for c in version["constraints"]}
                for field in expected:
                    if expected[field] != actual[field]:
                        print(f"{domain} {op['name']}-{since} {field}:\n  onyx: "
                              f"{actual[field]}\n  docs: {expected[field]}")
                        differences += 1
                defaults = {a["name"]: a.get("default") for a in version["attributes"]}
                for a in documented[since]["attributes"]:
                    mine_default = defaults.get(a["name"])
                    if not same_default(a, mine_default):
                        print(f"{domain} {op['name']}-{since} attribute {a['name']}: default "
                              f"{mine_default!r} in onyx, {a['default']!r} in the documents")
                        differences += 1
    for key in operators:
        if key not in seen:
            print(f"{key[0]} {key[1]}: in the documents, not in onyx")
            differences += 1
    print(f"{differences} differences")
    return 1 if differences else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mirror", default=DEFAULT_MIRROR,
                        help="a git checkout or bare mirror of onnx/onnx (read at HEAD)")
    commands = parser.add_subparsers(dest="command", required=True)
    write = commands.add_parser("write")
    write.add_argument("dir")
    write.add_argument("--force", action="store_true")
    show = commands.add_parser("print")
    show.add_argument("op")
    show.add_argument("--domain", default="ai.onnx")
    check = commands.add_parser("compare")
    check.add_argument("onyx")
    commands.add_parser("summary")
    args = parser.parse_args()

    operators = load_operators(args.mirror)
    if args.command == "summary":
        highest = highest_opsets(args.mirror)
        for domain in DOMAINS:
            ops = [key for key in operators if key[0] == domain]
            versions = sum(len(operators[key]) for key in ops)
            print(f"{domain}: {len(ops)} operators, {versions} versions, "
                  f"highest opset {highest.get(domain, 'none documented')}")
        return 0
    if args.command == "print":
        key = (args.domain, args.op)
        if key not in operators:
            raise SystemExit(f"no operator {args.op} in {args.domain}")
        print(operator_cpp(args.domain, args.op, operators[key]))
        return 0
    if args.command == "compare":
        return compare(operators, args.onyx)
    written = 0
    for (domain, name), versions in sorted(operators.items()):
        path = os.path.join(args.dir, family_of(domain, name), file_name(name) + ".cc")
        if os.path.exists(path) and not args.force:
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as out:
            out.write(operator_cpp(domain, name, versions))
        written += 1
    with open(os.path.join(args.dir, "operator_index.inc"), "w") as out:
        out.write(index_cpp(operators))
    print(f"wrote {written} op files and operator_index.inc")
    return 0


if __name__ == "__main__":
    sys.exit(main())
