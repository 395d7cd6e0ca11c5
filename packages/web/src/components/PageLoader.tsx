import { Center, Loader } from '@mantine/core';

/** Shown while the first screen's code loads. */
export function PageLoader() {
  return (
    <Center mih="60dvh">
      <Loader aria-label="loading" />
    </Center>
  );
}
