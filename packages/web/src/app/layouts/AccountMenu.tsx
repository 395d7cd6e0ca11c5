import { ActionIcon, Avatar, Menu, Text } from '@mantine/core';
import { IconLanguage, IconLink, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LANGUAGES } from '@nemuri/shared/constants';
import { roleOfLevel } from '@nemuri/shared/roles';
import type { SignedInUser } from '@nemuri/shared/user';
import { APP_VERSION } from '@nemuri/shared/version';
import { iconSize } from '../../lib/icons.ts';
import { changeLanguage, isLanguage } from '../../lib/i18n.ts';

interface AccountMenuProps {
  user: SignedInUser;
  onSignOut: () => void;
}

export function AccountMenu({ user, onSignOut }: AccountMenuProps) {
  const { t, i18n } = useTranslation();
  const name = user.displayName ?? user.email ?? user.uid;

  const selectLanguage = (language: string) => {
    if (!isLanguage(language)) return;
    void changeLanguage(language);
  };

  return (
    <Menu position="bottom-end" width={260} withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" size="lg" radius="xl" aria-label={t('shell.accountMenu')}>
          <Avatar src={user.photoURL} alt={name} size={iconSize('sm') + 6} radius="xl">
            {name.slice(0, 1)}
          </Avatar>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="bright" truncate>
            {name}
          </Text>
          <Text size="xs">{t('shell.level', { role: t(`roles.${roleOfLevel(user.accessLevel)}`), level: user.accessLevel })}</Text>
        </Menu.Label>
        <Menu.Item component={Link} to="/account-info" leftSection={<IconUserCircle size={iconSize('xs')} />}>
          {t('shell.accountInfo')}
        </Menu.Item>
        <Menu.Item component={Link} to="/link" leftSection={<IconLink size={iconSize('xs')} />}>
          {t('shell.link')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Label>{t('shell.language')}</Menu.Label>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language}
            leftSection={<IconLanguage size={iconSize('xs')} />}
            onClick={() => selectLanguage(language)}
            aria-current={i18n.language === language ? 'true' : undefined}
            fw={i18n.language === language ? 700 : undefined}
          >
            {t(`languages.${language}`)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={iconSize('xs')} />} onClick={onSignOut}>
          {t('shell.signOut')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Label data-testid="version-label">{t('app.version', { version: APP_VERSION })}</Menu.Label>
      </Menu.Dropdown>
    </Menu>
  );
}
