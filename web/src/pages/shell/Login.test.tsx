import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import '@/i18n';
import Login from './Login';
import { Permission } from '@/components/Permission';
import { userStore } from '@/store/user';

describe('Login page', () => {
  it('shows the point-5 messages for an empty name and a short password', async () => {
    render(
      <FluentProvider theme={webLightTheme}>
        <MemoryRouter initialEntries={['/login']}>
          <Login />
        </MemoryRouter>
      </FluentProvider>,
    );
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: '123' } });
    fireEvent.submit(screen.getByTestId('login-form'));
    expect(await screen.findByText('用户名不能为空')).toBeInTheDocument();
    expect(screen.getByText('密码不能少于6位')).toBeInTheDocument();
  });
});

describe('Permission component', () => {
  it('renders children only when permitted', () => {
    userStore.set({ admin: false, role: ['Editor'], permission: ['read:system'] });
    const { rerender } = render(<Permission guard={['delete:system']}>secret</Permission>);
    expect(screen.queryByText('secret')).toBeNull();
    rerender(<Permission guard={['read:system']}>secret</Permission>);
    expect(screen.getByText('secret')).toBeInTheDocument();
  });
});
