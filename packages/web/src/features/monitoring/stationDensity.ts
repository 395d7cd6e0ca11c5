/**
 * How densely the station draws its tiles, remembered per browser: `comfortable` tiles carry the
 * resident and how long the state has lasted; `compact` ones only room, state and rates, so that 100
 * rooms fit on one 1920×1080 screen.
 */
import { useState } from 'react';

export const DENSITIES = ['comfortable', 'compact'] as const;
export type Density = (typeof DENSITIES)[number];

const DENSITY_KEY = 'nemuri.monitoring.density';

function storedDensity(): Density {
  try {
    const value = window.localStorage.getItem(DENSITY_KEY);
    return (DENSITIES as readonly string[]).includes(value ?? '') ? (value as Density) : 'comfortable';
  } catch {
    return 'comfortable';
  }
}

export function useDensity(): [Density, (density: Density) => void] {
  const [density, setDensity] = useState<Density>(storedDensity);
  const choose = (next: Density) => {
    setDensity(next);
    try {
      window.localStorage.setItem(DENSITY_KEY, next);
    } catch {
      // Without storage the choice lasts for this page.
    }
  };
  return [density, choose];
}
