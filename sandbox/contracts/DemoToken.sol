// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Demo ERC-20 of the provider sandbox
/// @notice 18 decimals; the sandbox faucet (the minter) gives some to every new wallet.
contract DemoToken {
    string public constant name = "Demo Token";
    string public constant symbol = "DEMO";
    uint8 public constant decimals = 18;

    address public immutable minter;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(address minter_) {
        minter = minter_;
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == minter, "DemoToken: caller is not the minter");
        require(to != address(0), "DemoToken: mint to the zero address");
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= amount, "DemoToken: insufficient allowance");
            allowance[from][msg.sender] = allowed - amount;
        }
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) private {
        require(to != address(0), "DemoToken: transfer to the zero address");
        uint256 held = balanceOf[from];
        require(held >= amount, "DemoToken: transfer amount exceeds balance");
        unchecked {
            balanceOf[from] = held - amount;
        }
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
