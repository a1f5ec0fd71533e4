//! [`BufferPool`]: the few shared buffers an environment writes its numeric observations into,
//! reused once no caller holds them.

use std::sync::Arc;

use rl_core::CoreError;
use rl_spaces::FlatScalar;

use crate::numeric::{NumericLayout, NumericObservation};

/// Shared buffers for numeric observations.
///
/// Each new observation is written into a buffer that no one else holds (its reference count
/// is one) and handed out as a [`NumericObservation`] sharing it. A caller that keeps fewer
/// than [`BufferPool::CAPACITY`] observations alive across a step therefore never makes the
/// environment allocate; one that keeps more gets a freshly allocated buffer, and the pool
/// forgets its oldest buffer in exchange (the caller's copy stays valid).
#[derive(Debug)]
pub(crate) struct BufferPool<T> {
    layout: Arc<NumericLayout>,
    buffers: Vec<Arc<[T]>>,
    next_replaced: usize,
}

impl<T: FlatScalar> BufferPool<T> {
    /// How many buffers the pool keeps.
    pub(crate) const CAPACITY: usize = 4;

    /// An empty pool for data of `layout`.
    pub(crate) fn new(layout: Arc<NumericLayout>) -> Self {
        BufferPool {
            layout,
            buffers: Vec::with_capacity(Self::CAPACITY),
            next_replaced: 0,
        }
    }

    /// Lets `write` fill a free buffer (of the layout's flat dimension) and shares it.
    pub(crate) fn fill(
        &mut self,
        write: impl FnOnce(&mut [T]) -> Result<(), CoreError>,
    ) -> Result<NumericObservation<T>, CoreError> {
        let free = self
            .buffers
            .iter()
            .position(|b| Arc::strong_count(b) == 1 && Arc::weak_count(b) == 0);
        if let Some(buffer) = free.and_then(|i| self.buffers.get_mut(i)) {
            if let Some(data) = Arc::get_mut(buffer) {
                write(data)?;
                return Ok(NumericObservation::from_shared(
                    Arc::clone(&self.layout),
                    Arc::clone(buffer),
                ));
            }
        }
        // Every buffer is held by a caller: allocate a new one.
        let mut fresh = vec![T::ZERO; self.layout.flat_dim()];
        write(&mut fresh)?;
        let shared: Arc<[T]> = fresh.into();
        if self.buffers.len() < Self::CAPACITY {
            self.buffers.push(Arc::clone(&shared));
        } else if let Some(slot) = self.buffers.get_mut(self.next_replaced) {
            *slot = Arc::clone(&shared);
            self.next_replaced = (self.next_replaced + 1) % Self::CAPACITY;
        }
        Ok(NumericObservation::from_shared(
            Arc::clone(&self.layout),
            shared,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rl_spaces::{AnyBox, BoxSpace};

    fn pool() -> BufferPool<f32> {
        let layout = NumericLayout::single(
            "x",
            AnyBox::from(BoxSpace::uniform(&[2], 0.0f32, 9.0).expect("valid")),
        )
        .expect("valid");
        BufferPool::new(Arc::new(layout))
    }

    fn write(value: f32) -> impl FnOnce(&mut [f32]) -> Result<(), CoreError> {
        move |out| {
            out.fill(value);
            Ok(())
        }
    }

    #[test]
    fn released_buffers_are_reused() {
        let mut pool = pool();
        let first = pool.fill(write(1.0)).expect("fill");
        let pointer = first.as_slice().as_ptr();
        drop(first);
        let second = pool.fill(write(2.0)).expect("fill");
        assert_eq!(second.as_slice().as_ptr(), pointer);
        assert_eq!(second.as_slice(), &[2.0, 2.0]);
    }

    #[test]
    fn held_observations_are_never_overwritten() {
        let mut pool = pool();
        let held: Vec<NumericObservation<f32>> = (0..10)
            .map(|i| pool.fill(write(i as f32)).expect("fill"))
            .collect();
        for (i, observation) in held.iter().enumerate() {
            assert_eq!(observation.as_slice(), &[i as f32, i as f32]);
        }
        assert_eq!(pool.buffers.len(), BufferPool::<f32>::CAPACITY);
    }

    #[test]
    fn a_failed_write_is_reported() {
        let mut pool = pool();
        let result = pool.fill(|_| Err(CoreError::Unsupported { operation: "test" }));
        assert!(result.is_err());
    }
}
