"""LightRAG's file storages loaded from sidecars (``sidecars``) when they match.

LightRAG loads and saves its GraphML graph, nano-vectordb vectors and key-value JSON
(the chunks' texts) through names it looks up at call time
(``NetworkXStorage.load_nx_graph`` / ``write_nx_graph``, the ``NanoVectorDB`` class and
``load_json`` / ``write_json`` of its storage modules), not through a storage subclass,
so ``install`` points those names here. The files are written as before; a load
returns exactly what parsing the file would (same values, same order).

Sidecars are made in two places. A load that had to parse the file writes one from
what it parsed. A save writes one from memory, converted to what parsing the file just
written gives (the GraphML reader builds a multigraph and returns ``nx.Graph`` of it,
which reorders neighbours; nano-vectordb normalises its matrix again; JSON gives text
for LightRAG's ``DocStatus`` enum); where a value might not survive the file unchanged,
no sidecar is written and the next load parses the file.
"""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path
from typing import Any, TypeGuard

import networkx as nx
import numpy as np
from lightrag.kg import json_kv_impl, nano_vector_db_impl
from lightrag.kg.networkx_impl import NetworkXStorage
from nano_vectordb.dbs import normalize

from talentrag.gateways import sidecars
from talentrag.gateways.nano_vector_reads import TopKNanoVectorDB

GRAPH = "networkx-graphml"
VECTORS = "nano-vectordb-json"
KEY_VALUES = "lightrag-kv-json"
_LIBRARIES = {
    name: version(name) for name in ("lightrag-hku", "networkx", "nano-vectordb", "numpy")
}
"""Whose objects a sidecar pickles, and whose parse it stands for: another version of any
means parsing the file again."""

_parse_graphml = NetworkXStorage.load_nx_graph
_write_graphml = NetworkXStorage.write_nx_graph
_parse_json = json_kv_impl.load_json
_write_json = json_kv_impl.write_json


def install() -> None:
    """Make LightRAG's file storages load and save through sidecars (idempotent)."""
    NetworkXStorage.load_nx_graph = staticmethod(load_graph)
    NetworkXStorage.write_nx_graph = staticmethod(write_graph)
    nano_vector_db_impl.NanoVectorDB = SidecarNanoVectorDB
    json_kv_impl.load_json = load_key_values
    json_kv_impl.write_json = write_key_values


# -- GraphML ------------------------------------------------------------------------------
def load_graph(file_name: str) -> nx.Graph | None:
    """``load_nx_graph``: the sidecar's graph, else the parsed file (None when absent),
    which then gets a sidecar."""
    path = Path(file_name)
    cached = sidecars.read(path, GRAPH, _LIBRARIES)
    if isinstance(cached, nx.Graph):
        return cached
    key = sidecars.source_key(path)
    graph: nx.Graph | None = _parse_graphml(file_name)
    if graph is not None and key is not None and sidecars.source_key(path) == key:
        sidecars.write(path, key, graph, GRAPH, _LIBRARIES)  # the file did not change meanwhile
    return graph


def write_graph(graph: nx.Graph, file_name: str, workspace: str = "_") -> None:
    """``write_nx_graph``, then the sidecar of the file written.

    Runs in LightRAG's storage thread while its commit gate holds the graph still, and
    there is one writer per data directory, so the file now at ``file_name`` is the one
    just written from ``graph``.
    """
    _write_graphml(graph, file_name, workspace)
    path = Path(file_name)
    key = sidecars.source_key(path)
    read_back = graph_as_read_back(graph)
    if key is None or read_back is None:
        sidecars.remove(path)
        return
    sidecars.write(path, key, read_back, GRAPH, _LIBRARIES)


def graph_as_read_back(graph: nx.Graph) -> nx.Graph | None:
    """What ``nx.read_graphml`` gives for ``graph`` written by ``nx.write_graphml``, or
    None when a value might not come back unchanged.

    The reader adds the file's edges (``graph.edges()`` order) to a multigraph and
    returns ``nx.Graph`` of it, which walks the multigraph's adjacency: the edges are
    added here in that walk's order, so every node's neighbours come out in the
    reader's order (not always the live graph's).
    """
    if type(graph) is not nx.Graph or set(graph.graph) - {"node_default", "edge_default"}:
        return None  # graph attributes and key defaults are not modelled here
    if any(graph.graph.values()):
        return None
    nodes = list(graph.nodes(data=True))
    edges = list(graph.edges(data=True))
    if not _exact(nodes, edges):
        return None
    read = nx.Graph()
    read.graph.update(node_default={}, edge_default={})
    read.add_nodes_from(nodes)
    read.add_edges_from(_reader_order(nodes, edges))
    return read


_GRAPHML_TYPES = {str, int, float, bool}
_XML_ATTRIBUTE_BREAKS = ("\t", "\n", "\r")


def _exact(nodes: list[tuple[Any, dict[str, Any]]], edges: list[tuple[Any, Any, Any]]) -> bool:
    """Whether GraphML gives every name and value back unchanged: node ids and
    attribute names (XML attributes) without tabs or line breaks, values of the types
    the writer types, strings non-empty (writers differ on empty ones) and without a
    carriage return (XML reads it as a line feed)."""
    datas = [data for _node, data in nodes] + [data for _u, _v, data in edges]
    names = {node for node, _data in nodes} | {name for data in datas for name in data}
    if {type(name) for name in names} - {str}:
        return False
    if any(c in "".join(names) for c in _XML_ATTRIBUTE_BREAKS):
        return False
    values = [value for data in datas for value in data.values()]
    if {type(value) for value in values} - _GRAPHML_TYPES:
        return False
    strings = [value for value in values if type(value) is str]
    return "" not in strings and "\r" not in "".join(strings)


def _reader_order(
    nodes: list[tuple[str, dict[str, Any]]], edges: list[tuple[str, str, dict[str, Any]]]
) -> list[tuple[str, str, dict[str, Any]]]:
    """``edges`` in the order ``nx.Graph(multigraph)`` adds them: by the first end in node
    order, then that node's multigraph neighbours in the order their edges came."""
    incident: dict[str, list[tuple[str, dict[str, Any]]]] = {node: [] for node, _data in nodes}
    for u, v, data in edges:
        incident[u].append((v, data))
        if u != v:
            incident[v].append((u, data))
    ordered = []
    done: set[str] = set()
    for node, _data in nodes:
        ordered += [(node, other, data) for other, data in incident[node] if other not in done]
        done.add(node)
    return ordered


# -- nano-vectordb JSON ---------------------------------------------------------------------
class SidecarNanoVectorDB(TopKNanoVectorDB):
    """NanoVectorDB that loads from the sidecar of its JSON file and writes one on save
    (and queries by partial sort, ``TopKNanoVectorDB``)."""

    _NanoVectorDB__storage: dict[str, Any]  # nano-vectordb's own (name-mangled) state

    def __post_init__(self) -> None:
        self._source = Path(self.storage_file)
        storage = sidecars.read(self._source, VECTORS, _LIBRARIES)
        if self.metric == "cosine" and _fits(storage, self.embedding_dim):
            self._NanoVectorDB__storage = storage  # as loaded and normalised (pre_process)
            self.usable_metrics = {"cosine": self._cosine_query}
            return
        key = sidecars.source_key(self._source)
        super().__post_init__()
        if key is not None and sidecars.source_key(self._source) == key:
            sidecars.write(self._source, key, self._NanoVectorDB__storage, VECTORS, _LIBRARIES)

    def save(self) -> None:
        """Write the JSON file, then the sidecar of that very file.

        LightRAG points ``storage_file`` at a temporary file during its atomic save; the
        rename keeps size, modification time and inode, so the key is the final file's.
        """
        super().save()
        key = sidecars.source_key(Path(self.storage_file))
        storage = self._NanoVectorDB__storage
        if key is None or self.metric != "cosine" or not _json_exact(storage):
            sidecars.remove(self._source)
            return
        sidecars.write(self._source, key, _as_loaded(storage), VECTORS, _LIBRARIES)


def _fits(storage: Any, dim: int) -> TypeGuard[dict[str, Any]]:
    """Whether a sidecar's state is a storage of vectors of this dimension."""
    return isinstance(storage, dict) and storage.get("embedding_dim") == dim


_JSON_SCALARS = (str, int, float, bool, type(None))


def _json_exact(storage: dict[str, Any]) -> bool:
    """Whether ``json.load`` gives back every value but the matrix unchanged: scalars,
    and lists and string-keyed dicts of them (no tuples, no other keys)."""
    rows = storage["data"]
    if {type(row) for row in rows} - {dict}:
        return False
    if {type(k) for row in rows for k in row} - {str}:
        return False
    if {type(v) for row in rows for v in row.values()} - set(_JSON_SCALARS):
        return False
    rest = {k: v for k, v in storage.items() if k not in ("data", "matrix")}
    return _json_plain(rest)


def _json_plain(value: Any) -> bool:
    """Whether ``json.loads(json.dumps(value))`` equals ``value``, types included."""
    if type(value) is dict:
        return all(type(k) is str and _json_plain(v) for k, v in value.items())
    if type(value) is list:
        return all(_json_plain(v) for v in value)
    return type(value) in _JSON_SCALARS


def _as_loaded(storage: dict[str, Any]) -> dict[str, Any]:
    """``storage`` as loading its JSON gives it: the matrix through float32 bytes, then
    normalised (nano-vectordb's ``load_storage`` and ``pre_process``)."""
    dim = storage["embedding_dim"]
    matrix = np.frombuffer(storage["matrix"].tobytes(), dtype=np.float32).reshape(-1, dim)
    return {**storage, "matrix": normalize(matrix)}


# -- key-value JSON (JsonKVStorage) ---------------------------------------------------------
def load_key_values(file_name: str) -> Any:
    """``load_json`` of the key-value storage: the sidecar's data, else the parsed file
    (None when absent or empty), which then gets a sidecar."""
    path = Path(file_name)
    cached = sidecars.read(path, KEY_VALUES, _LIBRARIES)
    if isinstance(cached, dict):
        return cached
    key = sidecars.source_key(path)
    data = _parse_json(file_name)
    if isinstance(data, dict) and key is not None and sidecars.source_key(path) == key:
        sidecars.write(path, key, data, KEY_VALUES, _LIBRARIES)
    return data


def write_key_values(data: Any, file_name: str) -> bool:
    """``write_json``, then the sidecar of the file written, unless LightRAG had to
    sanitise the data (it then reloads the file) or JSON would change a value.

    Runs in LightRAG's storage thread on a snapshot of the storage, one writer per data
    directory: the file now at ``file_name`` is the one just written from ``data``.
    """
    sanitised = bool(_write_json(data, file_name))
    path = Path(file_name)
    key = sidecars.source_key(path)
    try:
        loaded = None if sanitised or key is None else _json_loaded(data)
    except _NotJson:
        loaded = None
    if key is None or not isinstance(loaded, dict):
        sidecars.remove(path)
    else:
        sidecars.write(path, key, loaded, KEY_VALUES, _LIBRARIES)
    return sanitised


class _NotJson(Exception):
    """A value JSON would not give back as it is (a tuple, a number key, an object)."""


def _json_loaded(value: Any) -> Any:
    """``value`` as ``json.loads(json.dumps(value))`` gives it back: a copy, with a
    ``str`` subclass (LightRAG's ``DocStatus`` enum) as its text; anything else JSON
    would change raises ``_NotJson``."""
    kind = type(value)
    if kind in _JSON_SCALARS:
        return value
    if kind is dict:
        if any(type(name) is not str for name in value):
            raise _NotJson(value)
        return {name: _json_loaded(item) for name, item in value.items()}
    if kind is list:
        return [_json_loaded(item) for item in value]
    if isinstance(value, str):
        return str.__str__(value)  # what the JSON encoder writes for a str subclass
    raise _NotJson(value)
