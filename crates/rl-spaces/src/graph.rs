//! [`GraphSpace`]: graphs with features on their nodes and, optionally, their edges
//! (Gymnasium's `Graph`), and their elements, [`GraphInstance`].

use std::fmt;

use ndarray::{ArrayD, IxDyn};
use rand::Rng;
use serde_json::{Map, Value};

use crate::json::describe;
use crate::scalar::BoxScalar;
use crate::sequence::not_flattenable;
use crate::space::{FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space};
use crate::{AnyArray, AnyElement, AnySpace, SpaceError};

/// An element of a [`GraphSpace`] (Gymnasium's `GraphInstance`).
///
/// `nodes` stacks the node features along a first axis (`n` nodes of a Box of shape `s` give
/// an array of shape `[n, s...]` of the Box's dtype; `n` nodes of a Discrete give `n` `int64`
/// values). With an edge space, `edges` stacks the `m` edge features the same way and
/// `edge_links` holds each edge's `[from, to]` node indices; without edges both are `None`.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphInstance {
    /// The node features, stacked.
    pub nodes: AnyArray,
    /// The edge features, stacked, if the graph has edges.
    pub edges: Option<AnyArray>,
    /// The `[from, to]` nodes of each edge, if the graph has edges.
    pub edge_links: Option<Vec<[i64; 2]>>,
}

impl GraphInstance {
    /// The number of nodes (the length of the first axis of `nodes`).
    pub fn num_nodes(&self) -> usize {
        self.nodes.shape().first().copied().unwrap_or(0)
    }

    /// The number of edges.
    pub fn num_edges(&self) -> usize {
        self.edge_links.as_ref().map_or(0, Vec::len)
    }
}

/// Graphs whose nodes carry an element of a node space and whose edges, if there is an edge
/// space, an element of it (Gymnasium's `Graph(node_space, edge_space)`). Both spaces are a
/// Box or a Discrete, as Gymnasium requires.
///
/// - **Sampling** follows Gymnasium: 10 nodes unless told otherwise
///   ([`SampleMask::Graph`](crate::SampleMask::Graph)), `integers(n (n - 1))` edges for
///   `n > 1` nodes, the node and edge features drawn as Gymnasium's batched spaces draw them,
///   and the edge links with `integers(0, n)`.
/// - **Element JSON** is Gymnasium's `to_jsonable` of one graph: `{"nodes": [nodes],
///   "edges": [edges], "edge_links": [[from, to], ...]}` (the stacked arrays as nested lists,
///   each wrapped in a list of one as Gymnasium's batch-of-one space writes them; no `edges`
///   and `edge_links` keys without edges).
/// - **Flattening** is refused, as Gymnasium's `flatdim` refuses a Graph.
/// - **Sizes**: the entries of an element (node entries, edge entries and two per link) are
///   at most [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN), checked before anything is drawn.
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{BoxSpace, Discrete, GraphSpace, NumpyGenerator, SampleSpace, Space};
///
/// let molecules = GraphSpace::new(
///     BoxSpace::uniform(&[3], 0.0f32, 1.0)?.into(),
///     Some(Discrete::new(4)?.into()),
/// )?;
/// let graph = molecules.sample(&mut NumpyGenerator::seed_from_u64(0));
/// assert_eq!(graph.num_nodes(), 10);
/// assert!(molecules.contains(&graph));
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GraphSpace {
    node: Box<AnySpace>,
    edge: Option<Box<AnySpace>>,
}

/// The number of nodes Gymnasium's `Graph.sample` draws by default.
pub const DEFAULT_NUM_NODES: usize = 10;

impl GraphSpace {
    /// Graphs over these node and edge spaces. Errors unless each is a Box or a Discrete.
    pub fn new(node_space: AnySpace, edge_space: Option<AnySpace>) -> Result<Self, SpaceError> {
        let check = |space: &AnySpace, what: &str| {
            if matches!(space, AnySpace::Box(_) | AnySpace::Discrete(_)) {
                Ok(())
            } else {
                Err(SpaceError::invalid(
                    "Graph",
                    format!("the {what} space must be a Box or a Discrete, found {space}"),
                ))
            }
        };
        check(&node_space, "node")?;
        if let Some(edge) = &edge_space {
            check(edge, "edge")?;
        }
        Ok(GraphSpace {
            node: Box::new(node_space),
            edge: edge_space.map(Box::new),
        })
    }

    /// The space of every node's features.
    pub fn node_space(&self) -> &AnySpace {
        &self.node
    }

    /// The space of every edge's features, if edges have any.
    pub fn edge_space(&self) -> Option<&AnySpace> {
        self.edge.as_deref()
    }

    /// Errors unless a graph of `nodes` nodes and `edges` edges has at most
    /// [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN) entries in all.
    pub(crate) fn check_size(&self, nodes: u128, edges: u128) -> Result<(), SpaceError> {
        let entries = |space: &AnySpace| match space {
            AnySpace::Box(b) => b.shape().iter().product::<usize>().max(1) as u128,
            _ => 1,
        };
        let per_node = entries(&self.node);
        let per_edge = self.edge.as_deref().map_or(0, entries) + 2;
        let total = nodes
            .saturating_mul(per_node)
            .saturating_add(edges.saturating_mul(per_edge));
        crate::limits::check_size("Graph", "entries of a graph", total)?;
        Ok(())
    }
}

impl fmt::Display for GraphSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.edge {
            Some(edge) => write!(f, "Graph({}, {edge})", self.node),
            None => write!(f, "Graph({}, None)", self.node),
        }
    }
}

/// The rows of a stacked array as elements of `space` (a Box or a Discrete), or `None` if the
/// array does not stack elements of its dtype and shape.
pub(crate) fn unstack(space: &AnySpace, array: &AnyArray) -> Option<Vec<AnyElement>> {
    fn rows<T: BoxScalar>(a: &ArrayD<T>, shape: &[usize]) -> Option<Vec<AnyElement>> {
        (a.ndim() == shape.len() + 1 && &a.shape()[1..] == shape).then(|| {
            a.outer_iter()
                .map(|row| AnyElement::from(row.to_owned()))
                .collect()
        })
    }
    match space {
        AnySpace::Discrete(_) => match array {
            AnyArray::I64(a) if a.ndim() == 1 => {
                Some(a.iter().map(|v| AnyElement::Int(*v)).collect())
            }
            _ => None,
        },
        AnySpace::Box(b) => {
            if array.dtype() != b.dtype() {
                return None;
            }
            let shape = b.shape();
            match array {
                AnyArray::F32(a) => rows(a, shape),
                AnyArray::F64(a) => rows(a, shape),
                AnyArray::I8(a) => rows(a, shape),
                AnyArray::I16(a) => rows(a, shape),
                AnyArray::I32(a) => rows(a, shape),
                AnyArray::I64(a) => rows(a, shape),
                AnyArray::U8(a) => rows(a, shape),
                AnyArray::U16(a) => rows(a, shape),
                AnyArray::U32(a) => rows(a, shape),
                AnyArray::U64(a) => rows(a, shape),
            }
        }
        _ => None,
    }
}

/// Stacks elements of `space` (a Box or a Discrete) along a new first axis: the inverse of
/// [`unstack`]. `None` if an element is not of the space's kind, dtype and shape.
pub(crate) fn stack(space: &AnySpace, rows: &[AnyElement]) -> Option<AnyArray> {
    fn stacked<T: BoxScalar>(rows: &[AnyElement], shape: &[usize]) -> Option<AnyArray> {
        let mut values = Vec::with_capacity(rows.len() * shape.iter().product::<usize>());
        for row in rows {
            let a = row.as_array()?.as_array::<T>()?;
            if a.shape() != shape {
                return None;
            }
            values.extend(a.iter().copied());
        }
        let mut full = vec![rows.len()];
        full.extend_from_slice(shape);
        ArrayD::from_shape_vec(IxDyn(&full), values)
            .ok()
            .map(T::wrap_array)
    }
    match space {
        AnySpace::Discrete(_) => {
            let values = rows
                .iter()
                .map(AnyElement::as_int)
                .collect::<Option<Vec<_>>>()?;
            ArrayD::from_shape_vec(IxDyn(&[values.len()]), values)
                .ok()
                .map(AnyArray::I64)
        }
        AnySpace::Box(b) => {
            let shape = b.shape();
            match b.dtype() {
                crate::DType::F32 => stacked::<f32>(rows, shape),
                crate::DType::F64 => stacked::<f64>(rows, shape),
                crate::DType::I8 => stacked::<i8>(rows, shape),
                crate::DType::I16 => stacked::<i16>(rows, shape),
                crate::DType::I32 => stacked::<i32>(rows, shape),
                crate::DType::I64 => stacked::<i64>(rows, shape),
                crate::DType::U8 => stacked::<u8>(rows, shape),
                crate::DType::U16 => stacked::<u16>(rows, shape),
                crate::DType::U32 => stacked::<u32>(rows, shape),
                crate::DType::U64 => stacked::<u64>(rows, shape),
            }
        }
        _ => None,
    }
}

impl Space for GraphSpace {
    type Element = GraphInstance;

    fn contains(&self, x: &GraphInstance) -> bool {
        if self
            .check_size(x.num_nodes() as u128, x.num_edges() as u128)
            .is_err()
        {
            return false;
        }
        let Some(nodes) = unstack(&self.node, &x.nodes) else {
            return false;
        };
        if !nodes.iter().all(|n| self.node.contains(n)) {
            return false;
        }
        match (&x.edges, &x.edge_links, &self.edge) {
            (None, None, _) => true,
            (Some(edges), Some(links), Some(edge_space)) => {
                let Some(edges) = unstack(edge_space, edges) else {
                    return false;
                };
                let n = nodes.len() as i64;
                edges.len() == links.len()
                    && edges.iter().all(|e| edge_space.contains(e))
                    && links
                        .iter()
                        .all(|link| link.iter().all(|end| (0..n).contains(end)))
            }
            _ => false,
        }
    }
}

impl SampleSpace for GraphSpace {
    /// Gymnasium's default draw ([`DEFAULT_NUM_NODES`] nodes, a random number of edges), every
    /// draw from `rng`.
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> GraphInstance {
        let n = DEFAULT_NUM_NODES;
        let m = crate::numpy_random::integers(rng, 0, (n * (n - 1)) as i64).unwrap_or(0) as usize;
        let nodes: Vec<AnyElement> = (0..n).map(|_| self.node.sample_child(rng)).collect();
        let nodes = stack(&self.node, &nodes).unwrap_or(AnyArray::I64(ArrayD::zeros(IxDyn(&[0]))));
        let (edges, edge_links) = match &self.edge {
            Some(edge) if m > 0 => {
                let edges: Vec<AnyElement> = (0..m).map(|_| edge.sample_child(rng)).collect();
                let links = (0..m)
                    .map(|_| {
                        let mut link = [0i64; 2];
                        for end in &mut link {
                            *end = crate::numpy_random::integers(rng, 0, n as i64).unwrap_or(0);
                        }
                        link
                    })
                    .collect();
                (stack(edge, &edges), Some(links))
            }
            _ => (None, None),
        };
        let edge_links = edges.as_ref().and(edge_links);
        GraphInstance {
            nodes,
            edges,
            edge_links,
        }
    }
}

impl FlattenSpace for GraphSpace {
    fn is_flattenable(&self) -> bool {
        false
    }

    fn flat_dim(&self) -> usize {
        0
    }

    fn flatten_into<F: FlatScalar>(
        &self,
        _x: &GraphInstance,
        _out: &mut [F],
    ) -> Result<(), SpaceError> {
        Err(not_flattenable(self))
    }

    fn unflatten<F: FlatScalar>(&self, _flat: &[F]) -> Result<GraphInstance, SpaceError> {
        Err(not_flattenable(self))
    }
}

impl JsonSpace for GraphSpace {
    fn element_to_json(&self, x: &GraphInstance) -> Result<Value, SpaceError> {
        if !self.contains(x) {
            return Err(SpaceError::not_in_space(x, self));
        }
        let stacked_json = |space: &AnySpace, array: &AnyArray| -> Result<Value, SpaceError> {
            let rows = unstack(space, array).ok_or_else(|| SpaceError::not_in_space(x, self))?;
            let rows = rows
                .iter()
                .map(|row| space.element_to_json(row))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Value::Array(vec![Value::Array(rows)]))
        };
        let mut object = Map::new();
        object.insert("nodes".to_owned(), stacked_json(&self.node, &x.nodes)?);
        if let (Some(edges), Some(links), Some(edge_space)) = (&x.edges, &x.edge_links, &self.edge)
        {
            object.insert("edges".to_owned(), stacked_json(edge_space, edges)?);
            object.insert(
                "edge_links".to_owned(),
                Value::Array(links.iter().map(|l| Value::from(l.to_vec())).collect()),
            );
        }
        Ok(Value::Object(object))
    }

    fn element_from_json(&self, value: &Value) -> Result<GraphInstance, SpaceError> {
        let object =
            crate::json::StrictObject::new(value, "graph", &["nodes", "edges", "edge_links"])?;
        let read_stacked = |space: &AnySpace, key: &str| -> Result<AnyArray, SpaceError> {
            let value = object.required(key)?;
            let inner = match value.as_array().map(Vec::as_slice) {
                Some([inner]) => inner,
                _ => {
                    return Err(SpaceError::json(format!(
                        "expected a list holding one list of {key}, found {}",
                        describe(value)
                    ))
                    .within(&format!(".{key}")));
                }
            };
            let rows = space
                .batch_from_jsonable(inner)
                .map_err(|e| e.within(&format!(".{key}[0]")))?;
            stack(space, &rows).ok_or_else(|| {
                SpaceError::json("rows of different shapes").within(&format!(".{key}"))
            })
        };
        let nodes = read_stacked(&self.node, "nodes")?;
        let (edges, edge_links) = match (
            object.optional("edges"),
            object.optional("edge_links"),
            &self.edge,
        ) {
            (None, None, _) => (None, None),
            (Some(_), Some(links), Some(edge_space)) => {
                let edges = read_stacked(edge_space, "edges")?;
                let items = links.as_array().ok_or_else(|| {
                    SpaceError::json(format!(
                        "expected a list of links, found {}",
                        describe(links)
                    ))
                    .within(".edge_links")
                })?;
                let links = items
                    .iter()
                    .enumerate()
                    .map(|(i, link)| {
                        match link.as_array().map(Vec::as_slice) {
                            Some([a, b]) => match (a.as_i64(), b.as_i64()) {
                                (Some(a), Some(b)) => Ok([a, b]),
                                _ => Err(()),
                            },
                            _ => Err(()),
                        }
                        .map_err(|()| {
                            SpaceError::json(format!(
                                "expected [from, to], found {}",
                                describe(link)
                            ))
                            .within(&format!(".edge_links[{i}]"))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                (Some(edges), Some(links))
            }
            (_, _, None) => {
                return Err(SpaceError::json(format!(
                    "{self} has no edge space, but the graph has edges"
                )));
            }
            _ => {
                return Err(SpaceError::json("`edges` and `edge_links` go together"));
            }
        };
        let graph = GraphInstance {
            nodes,
            edges,
            edge_links,
        };
        if !self.contains(&graph) {
            return Err(SpaceError::not_in_space(&graph, self));
        }
        Ok(graph)
    }
}
