import { useMatches } from 'react-router';
import { routeByName, type FlatRoute } from '@nemuri/shared/routeAccess';

/** Every generated route carries its name, so layouts and screens can find its rule and title. */
export interface RouteHandle {
  routeName: string;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as RouteHandle).routeName === 'string';
}

/** The deepest matched route of the access table, or null on pages outside it (not found). */
export function useCurrentRoute(): FlatRoute | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle;
    if (isRouteHandle(handle)) return routeByName(handle.routeName);
  }
  return null;
}
