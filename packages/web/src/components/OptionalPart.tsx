import { Component, Suspense, type ReactNode } from 'react';

interface OptionalPartProps {
  children: ReactNode;
  /** Shown while the part's code loads and, when given, in its place if it cannot be loaded. */
  fallback?: ReactNode;
  /** Shown instead of the part when its code cannot be loaded (offline, after a deploy). */
  failed?: ReactNode;
}

/**
 * A part of a screen with code of its own (a lazy component) that the screen can do without: when
 * its chunk cannot be fetched it is left out, instead of the route's error page replacing the
 * whole screen (and everything else the person was doing there).
 */
export class OptionalPart extends Component<OptionalPartProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.warn('[optional part] left out', error);
  }

  override render(): ReactNode {
    if (this.state.failed) return this.props.failed ?? null;
    return <Suspense fallback={this.props.fallback ?? null}>{this.props.children}</Suspense>;
  }
}
