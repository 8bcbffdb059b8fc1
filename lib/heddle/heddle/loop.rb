# frozen_string_literal: true

require_relative "loop/event_loop"
require_relative "loop/fork_hook"
require_relative "loop/io_watch"
require_relative "loop/open_loops"
require_relative "loop/selectors/epoll_watch"
require_relative "loop/selectors/nio_watch"
require_relative "loop/selectors/select_watch"
require_relative "loop/selectors/selector_reserve"
require_relative "loop/timer"
require_relative "loop/timer_heap"
require_relative "loop/yjit_warm_up"
