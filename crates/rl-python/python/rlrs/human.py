"""``render_mode="human"``: a pygame window (pygame or pygame-ce, imported only when a window
opens) showing the Rust core's RGB frames at the id's ``render_fps``, as Gymnasium's own
environments show theirs: after every reset and step, and on ``render()``.

Headless machines (CI) use SDL's dummy video driver: ``SDL_VIDEODRIVER=dummy``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Window"]


class Window:
    """A window of ``title`` that shows frames, at most ``fps`` a second."""

    def __init__(self, title: str, fps: int) -> None:
        try:
            import pygame
        except ImportError as error:
            raise ImportError(
                'render_mode="human" needs pygame: pip install "rlrs[human]" (pygame-ce), or pygame'
            ) from error
        self._pygame = pygame
        self._title = title
        self._fps = fps
        self.surface = None
        self.clock = None

    def show(self, frame: np.ndarray | None) -> None:
        """Shows ``frame`` (``(height, width, 3)`` ``uint8``; nothing for ``None``), then
        waits so that frames follow one another at ``fps``."""
        if frame is None:
            return
        pygame = self._pygame
        size = (frame.shape[1], frame.shape[0])
        if self.surface is None:
            pygame.init()
            pygame.display.init()
            pygame.display.set_caption(self._title)
            self.surface = pygame.display.set_mode(size)
            self.clock = pygame.time.Clock()
        elif self.surface.get_size() != size:
            self.surface = pygame.display.set_mode(size)
        image = pygame.surfarray.make_surface(np.ascontiguousarray(frame.transpose(1, 0, 2)))
        self.surface.blit(image, (0, 0))
        pygame.event.pump()
        self.clock.tick(self._fps)
        pygame.display.flip()

    def close(self) -> None:
        """Closes the window (if it opened)."""
        if self.surface is not None:
            self._pygame.display.quit()
            self._pygame.quit()
            self.surface = None
