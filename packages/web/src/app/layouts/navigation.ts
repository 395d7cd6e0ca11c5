import {
  IconBellRinging,
  IconBuildingStore,
  IconChartBar,
  IconDatabaseCog,
  IconDeviceDesktopAnalytics,
  IconDevices,
  IconDoor,
  IconFileImport,
  IconHelp,
  IconHistory,
  IconHome,
  IconLayoutGrid,
  IconSettings,
  IconTransferIn,
  type Icon,
} from '@tabler/icons-react';
import { levelOpensRoute } from '@nemuri/shared/routeAccess';

export interface NavItem {
  /** Translation key under `nav.` */
  labelKey: string;
  to: string;
  /** The route whose access rule decides whether the item is listed. */
  routeName: string;
  icon: Icon;
}

/** The areas of the product in the order a facility uses them. */
export const NAV_ITEMS: NavItem[] = [
  { labelKey: 'home', to: '/', routeName: 'home', icon: IconHome },
  { labelKey: 'rooms', to: '/card', routeName: 'homeCard', icon: IconLayoutGrid },
  { labelKey: 'monitoring', to: '/monitoring', routeName: 'monitoring', icon: IconDeviceDesktopAnalytics },
  { labelKey: 'alertHistory', to: '/alert-history', routeName: 'alertHistory', icon: IconBellRinging },
  { labelKey: 'report', to: '/report', routeName: 'report', icon: IconChartBar },
  { labelKey: 'dataImport', to: '/data-import', routeName: 'dataImport', icon: IconFileImport },
  { labelKey: 'roomConfig', to: '/room-config/card', routeName: 'roomConfigCard', icon: IconDoor },
  { labelKey: 'deviceConfig', to: '/device-config/card', routeName: 'deviceConfigCard', icon: IconDevices },
  { labelKey: 'domainConfig', to: '/domain-config', routeName: 'domainConfig', icon: IconSettings },
  { labelKey: 'auditLog', to: '/audit-log', routeName: 'auditLog', icon: IconHistory },
  { labelKey: 'agency', to: '/agency/devices', routeName: 'agencyDevices', icon: IconBuildingStore },
  { labelKey: 'deviceBorrow', to: '/device-borrow', routeName: 'deviceBorrow', icon: IconTransferIn },
  { labelKey: 'master', to: '/master', routeName: 'masterHome', icon: IconDatabaseCog },
  { labelKey: 'help', to: '/help', routeName: 'help', icon: IconHelp },
];

/** Only the areas the user's level opens are listed. */
export function navItemsForLevel(level: number): NavItem[] {
  return NAV_ITEMS.filter((item) => levelOpensRoute(level, item.routeName));
}
