import { Anchor, AppShell, Burger, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMoonStars } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import { signOut, useCurrentUser } from '../../lib/session.ts';
import { ReleaseNotice } from '../../features/master/ReleaseNotice.tsx';
import { RouteGuard } from '../guard/RouteGuard.tsx';
import { AccountMenu } from './AccountMenu.tsx';
import { ColorSchemeToggle } from './ColorSchemeToggle.tsx';
import { navItemsForLevel } from './navigation.ts';

function isActive(pathname: string, to: string): boolean {
  if (to === '/') return pathname === '/';
  const area = `/${to.split('/')[1] ?? ''}`;
  return pathname === to || pathname.startsWith(`${area}/`) || pathname === area;
}

/** Header, navigation and account menu around every signed-in screen. */
export function MainLayout() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [navOpened, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);

  // Signed out: the guard sends the user to the sign-in page without drawing the shell.
  if (!user) return <RouteGuard>{null}</RouteGuard>;

  const handleSignOut = () => {
    signOut()
      .then(() => navigate('/login', { replace: true }))
      .catch((error: unknown) => {
        console.error('[session] sign-out failed', error);
        notify({ color: 'red', message: t('shell.signOutFailed') });
      });
  };

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !navOpened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={navOpened} onClick={toggleNav} hiddenFrom="sm" size="sm" aria-label={t('shell.toggleNavigation')} />
            <Anchor component={Link} to="/" underline="never" c="inherit">
              <Group gap={6} wrap="nowrap">
                <IconMoonStars size={iconSize('sm')} color="var(--mantine-color-yellow-4)" />
                <Text fw={700}>{t('app.name')}</Text>
              </Group>
            </Anchor>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ColorSchemeToggle />
            <AccountMenu user={user} onSignOut={handleSignOut} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('nav.main')}>
        <AppShell.Section grow component={ScrollArea}>
          {navItemsForLevel(user.accessLevel).map((item) => (
            <NavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={t(`nav.${item.labelKey}`)}
              leftSection={<item.icon size={iconSize('xs')} />}
              active={isActive(pathname, item.to)}
              onClick={closeNav}
            />
          ))}
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <ReleaseNotice />
        <RouteGuard>
          <Outlet />
        </RouteGuard>
      </AppShell.Main>
    </AppShell>
  );
}
