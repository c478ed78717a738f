//go:build !dev

package main

const startHidden = false
